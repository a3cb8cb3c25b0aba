/**
 * Which feed quotes which pair (MARKET_FEED, docs/market.md "Feeds"):
 * - `simulator` (default): the seeded simulator quotes every active pair; all are labelled
 *   "Simulated".
 * - `binance`: the crypto pairs of BINANCE_SYMBOLS come from Binance spot trades (BINANCE_WS_URL);
 *   every other active pair (forex, stocks, commodities: Binance has no spot market for them)
 *   keeps the simulator and stays labelled "Simulated". They are not suspended: the label says
 *   exactly what they are, and their settlement follows the same rules.
 */
import type { Config } from '../../../config';
import type { PairSpec } from '../catalogue';
import { BINANCE_SYMBOLS } from '../catalogue';
import { Simulator, type ResumePoint } from '../simulator';
import type { PriceFeed } from '../types';
import { BinanceFeed, type FeedLog } from './binance';
import { CompositeFeed } from './composite';

export interface FeedSetup {
  config: Pick<Config, 'marketFeed' | 'binanceWsUrl' | 'simSeed' | 'simTicksPerSecond'>;
  /** The active pairs. */
  pairs: readonly PairSpec[];
  resume: ReadonlyMap<string, ResumePoint>;
  clock: () => number;
  log: FeedLog & { error(obj: object, msg: string): void };
}

export function buildFeed(setup: FeedSetup): PriceFeed {
  const simulator = (pairs: readonly PairSpec[]) =>
    new Simulator({
      seed: setup.config.simSeed,
      ticksPerSecond: setup.config.simTicksPerSecond,
      pairs,
      resume: setup.resume,
      clock: setup.clock,
      onError: (err) => setup.log.error({ err }, 'market tick failed'),
    });
  if (setup.config.marketFeed !== 'binance') return simulator(setup.pairs);
  const live = setup.pairs.filter((p) => BINANCE_SYMBOLS.has(p.pair_code));
  const rest = setup.pairs.filter((p) => !BINANCE_SYMBOLS.has(p.pair_code));
  const binance = new BinanceFeed({
    baseUrl: setup.config.binanceWsUrl,
    symbols: new Map(live.map((p) => [p.pair_code, BINANCE_SYMBOLS.get(p.pair_code)!])),
    log: setup.log,
  });
  return new CompositeFeed([
    { feed: binance, pairs: live.map((p) => p.pair_code), simulated: false },
    { feed: simulator(rest), pairs: rest.map((p) => p.pair_code), simulated: true },
  ]);
}

/** The start-up banner's line about where prices come from (main.ts). */
export function marketBannerLine(config: Pick<Config, 'marketFeed' | 'binanceWsUrl'>): string {
  if (config.marketFeed === 'binance') {
    return `  Prices: crypto pairs from Binance spot trades (${config.binanceWsUrl}); all other pairs SIMULATED (labelled on screen)`;
  }
  return '  Prices: SIMULATED for every pair (embedded simulator; labelled on screen). MARKET_FEED=binance quotes crypto from Binance';
}
