/**
 * Several feeds behind one PriceFeed: each pair is quoted by exactly one of them (with
 * MARKET_FEED=binance: the crypto pairs by Binance, the others by the simulator). The market
 * service sees one feed; `isSimulated(pair)` asks the feed that quotes the pair.
 */
import type { PriceFeed, Tick } from '../types';

export interface FeedPart {
  feed: PriceFeed;
  /** The pairs this feed quotes. */
  pairs: readonly string[];
  /** Whether its prices are made up by a model. */
  simulated: boolean;
}

export class CompositeFeed implements PriceFeed {
  private readonly simulatedBy = new Map<string, boolean>();

  constructor(readonly parts: readonly FeedPart[]) {
    for (const part of parts) for (const pair of part.pairs) this.simulatedBy.set(pair, part.simulated);
  }

  start(onTick: (tick: Tick) => void): void {
    for (const part of this.parts) part.feed.start(onTick);
  }

  stop(): void {
    for (const part of this.parts) part.feed.stop();
  }

  isSimulated(pairCode: string): boolean {
    return this.simulatedBy.get(pairCode) ?? false;
  }
}
