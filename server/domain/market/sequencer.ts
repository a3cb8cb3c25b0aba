/**
 * Ticks in: every tick goes through `ingest` (from this node's feed) or `acceptRemote` (a cluster
 * follower's ticks from the leader, over the tick bus). The sequencer, not the feed, numbers
 * ticks (seq = last + 1 per pair, after the numbering floor a restart left; series.ts), rounds
 * the price to the pair's precision and refuses a tick older than the pair's last one. A numbered
 * tick lands in the pair's ring, in the write batch (batch-writer.ts) and in the live candle of
 * every timeframe (and the in-memory history, candle-ring.ts) before listeners hear of it.
 *
 * It also holds the node's cluster role (docs/cluster.md; fencing.ts): a `leader` numbers ticks
 * only while its lease is valid and hands each to the tick bus; a `follower` numbers nothing and
 * writes nothing, it takes the leader's numbered ticks into the same ring, candles, quote state
 * and listeners.
 */
import { TIMEFRAMES } from '../../../contract/user';
import type { MarketDeps } from './deps';
import type { Tick } from './types';
import type { BatchWriter } from './batch-writer';
import type { CandleRing } from './candle-ring';
import type { QuoteWatch } from './quote-watch';
import type { LeaderTerm, MarketRole } from './fencing';
import { FLUSH_INTERVAL_MS } from './batch-writer';
import { applyPrice } from './candles';
import { roundPrice } from './catalogue';
import { candleKey, type Series } from './series';

export class TickSequencer {
  role: MarketRole = 'single';
  /** The newest leader epoch this node has seen (cluster only). */
  epoch = 0;
  /** The current term while this node leads, and until its last write after stepping down. */
  term: LeaderTerm | null = null;
  /** Set by stop(): no tick is taken any more. */
  stopped = false;
  /** Stale-quote state (quote-watch.ts): a tick makes a delayed pair live again. */
  quotes: QuoteWatch | null = null;
  private readonly listeners = new Set<(tick: Tick) => void>();

  constructor(
    private readonly series: ReadonlyMap<string, Series>,
    private readonly writer: BatchWriter,
    private readonly history: CandleRing,
    private readonly deps: Pick<MarketDeps, 'now' | 'log'>,
  ) {}

  /** Take one tick from the feed; returns the tick as logged, or null when refused. */
  readonly ingest = (raw: Tick): Tick | null => {
    if (this.stopped) return null;
    const s = this.series.get(raw?.pair_code);
    if (!s) return this.refuse(raw, 'unknown pair');
    if (typeof raw.price !== 'number' || !Number.isFinite(raw.price) || typeof raw.time !== 'number' || !Number.isFinite(raw.time)) {
      return this.refuse(raw, 'not a finite price and time');
    }
    const price = roundPrice(raw.price, s.pair.precision);
    if (!(price > 0)) return this.refuse(raw, 'price must be positive');
    const time = Math.round(raw.time);
    const last = s.ring.latest();
    const floor = s.handedOut;
    if ((last && time < last.time) || (floor && time < floor.time)) return this.refuse(raw, 'time before the last tick');
    const seq = Math.max(last?.seq ?? 0, floor?.seq ?? 0) + 1;

    // A leader whose lease ran out numbers nothing (another node may lead already; leadership.ts).
    if (this.role === 'leader' && !this.term?.valid()) return null;
    const tick: Tick = Object.freeze({ pair_code: s.pair.pair_code, seq, time, price });
    s.handedOut = null;
    s.epoch = this.epoch;
    this.apply(s, tick, true);
    if (this.role === 'leader') this.term?.publish(tick);
    return tick;
  };

  /** Ticks the leader of `epoch` numbered, from the bus (ignored unless this node follows). */
  acceptRemote(epoch: number, ticks: readonly Tick[]): void {
    if (this.stopped || this.role !== 'follower' || epoch < this.epoch) return;
    this.epoch = epoch;
    for (const raw of ticks) {
      const s = this.series.get(raw.pair_code);
      if (!s || !Number.isSafeInteger(raw.seq) || !Number.isFinite(raw.price) || !Number.isFinite(raw.time)) continue;
      const last = s.ring.latest();
      // Already held, unless a newer leader renumbered from an older point (it wins).
      if (last && raw.seq <= last.seq && epoch <= s.epoch) continue;
      if (last && raw.time < last.time && epoch <= s.epoch) continue;
      s.epoch = epoch;
      this.apply(s, Object.freeze({ pair_code: s.pair.pair_code, seq: raw.seq, time: raw.time, price: raw.price }), false);
    }
  }

  onTick(listener: (tick: Tick) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Whether an order of `pairCode` expiring at `expiresAt` can be settled now, with the same exit
   * tick whichever node settles it: the clock has passed expiry and a later tick exists or the
   * grace is over. A follower only trusts its ring when the ring holds the ticks around expiry
   * (it holds the leader's ticks without a gap from its oldest on); otherwise it waits past the
   * grace for two more of the leader's batched log writes, so the log has the exit tick.
   */
  exitFinal(pairCode: string, expiresAt: number, graceMs: number): boolean {
    const now = this.deps.now();
    if (now < expiresAt) return false;
    const s = this.series.get(pairCode);
    const latest = s?.ring.latest();
    if (this.role !== 'follower') {
      if (now >= expiresAt + graceMs) return true;
      return latest !== undefined && latest.time > expiresAt;
    }
    const oldest = s?.ring.oldestTime();
    if (latest !== undefined && oldest !== undefined && oldest <= expiresAt && latest.time > expiresAt) return true;
    return now >= expiresAt + graceMs + 2 * FLUSH_INTERVAL_MS;
  }

  /** A numbered tick into the ring, the candles and the quote state, then to the listeners. */
  private apply(s: Series, tick: Tick, persist: boolean): void {
    const { time, price } = tick;
    const writer = this.writer;
    s.ring.push(tick);
    if (persist) writer.pendingTicks.push(tick);
    if (!s.anchor) {
      s.anchor = { time, price };
      if (persist) writer.pendingAnchors.set(tick.pair_code, s.anchor);
    }
    for (const tf of TIMEFRAMES) {
      const candle = applyPrice(s.live.get(tf), tick.pair_code, tf, time, price);
      if (!candle) continue;
      s.live.set(tf, candle);
      if (persist) writer.dirtyCandles.set(candleKey(candle), candle);
      this.history.apply(candle);
    }
    // A delayed pair resumes with its first fresh tick, before anyone hears of that tick.
    this.quotes?.touch(tick.pair_code);
    for (const listener of this.listeners) {
      try {
        listener(tick);
      } catch (err) {
        this.deps.log.error({ err }, 'market tick listener failed');
      }
    }
  }

  private refuse(raw: unknown, reason: string): null {
    this.deps.log.warn({ tick: raw, reason }, 'market tick refused');
    return null;
  }
}
