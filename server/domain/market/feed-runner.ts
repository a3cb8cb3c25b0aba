/**
 * The price feed and the jobs that run while this node numbers ticks: the feed MARKET_FEED picks
 * (feeds/select.ts: the seeded simulator, or Binance for crypto) or the one handed in, the batched
 * writer's flush timer and retention. A cluster follower runs none of them; when it comes to
 * lead, the feed is built again to continue each pair from its resume point (handover.ts).
 */
import type { MarketDeps } from './deps';
import type { PriceFeed, Tick } from './types';
import type { PairSpec } from './catalogue';
import type { FeedControl } from './handover';
import type { ResumePoint } from './simulator';
import { buildFeed } from './feeds/select';

export class FeedRunner implements FeedControl {
  private current: PriceFeed | null = null;
  private simulated = false;
  /** The market has started (and not stopped): a feed built again for a new term starts at once. */
  running = false;

  constructor(
    private readonly deps: Pick<MarketDeps, 'feed' | 'marketFeed' | 'binanceWsUrl' | 'simSeed' | 'simTicksPerSecond' | 'now' | 'log'>,
    /** The active pairs, as the model quotes them. */
    private readonly pairs: () => PairSpec[],
    private readonly ingest: (raw: Tick) => Tick | null,
    /** Started after the feed, stopped after it (the writer's flush, retention). */
    private readonly jobs: readonly { start(): void; stop(): void }[],
  ) {}

  /** The feed, once built (Market.init). */
  get feed(): PriceFeed | null {
    return this.current;
  }

  /** True when the embedded simulator is the feed (only then is history backfilled). */
  get usesSimulator(): boolean {
    return this.simulated;
  }

  /** Whether the pair's prices are made up by the simulator (shown as "Simulated"). */
  isSimulated(pairCode: string): boolean {
    return this.current?.isSimulated?.(pairCode) ?? false;
  }

  /** Pick the feed, continuing each pair from its resume point (the simulator's seq and price). */
  build(resume: ReadonlyMap<string, ResumePoint>): void {
    const override = this.deps.feed;
    if (override) {
      this.current = override;
      return;
    }
    this.simulated = true;
    const { deps } = this;
    this.current = buildFeed({ config: deps, pairs: this.pairs(), resume, clock: deps.now, log: deps.log });
  }

  start(): void {
    this.current!.start(this.ingest);
    for (const job of this.jobs) job.start();
  }

  stop(): void {
    this.current?.stop();
    for (const job of this.jobs) job.stop();
  }

  /** A new term leads from `resume`: the feed is built again, and runs if the market does. */
  restart(resume: ReadonlyMap<string, ResumePoint>): void {
    this.build(resume);
    if (this.running) this.start();
  }
}
