/**
 * Stale quotes (docs/market.md, "Stale quotes"): a pair whose newest tick is older than its
 * category's limit (STALE_QUOTE_MS, default 5 s) is `delayed`; its first fresh tick makes it
 * `live` again. A timer checks every pair a few times per limit and tells listeners of every
 * change (the socket layer pushes `pair_status`); placement refuses new orders on a delayed
 * pair by the same age test (orders/placement.ts freshTick).
 */
import type { Pair, PairCategory, QuoteState } from '../../../contract/market';

export type QuoteListener = (pairCode: string, state: QuoteState) => void;

export class QuoteWatch {
  private readonly states = new Map<string, QuoteState>();
  private readonly category = new Map<string, PairCategory>();
  private readonly listeners = new Set<QuoteListener>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    pairs: readonly Pick<Pair, 'pair_code' | 'category'>[],
    private readonly limits: Record<PairCategory, number>,
    private readonly latestTime: (pairCode: string) => number | undefined,
    private readonly now: () => number,
  ) {
    for (const p of pairs) {
      this.category.set(p.pair_code, p.category);
      this.states.set(p.pair_code, this.compute(p.pair_code));
    }
  }

  limitMs(pairCode: string): number {
    return this.limits[this.category.get(pairCode) ?? 'forex'];
  }

  /** The state now (computed, so it is right even between two checks). */
  state(pairCode: string): QuoteState {
    return this.compute(pairCode);
  }

  onChange(listener: QuoteListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** A tick of the pair arrived: a delayed pair is live again at once. */
  touch(pairCode: string): void {
    if (this.states.get(pairCode) === 'delayed') this.update(pairCode);
  }

  /** Re-check every pair; returns the pairs whose state changed. */
  check(): string[] {
    const changed: string[] = [];
    for (const code of this.states.keys()) if (this.update(code)) changed.push(code);
    return changed;
  }

  start(): void {
    if (this.timer) return;
    const smallest = Math.min(...Object.values(this.limits));
    const every = Math.max(50, Math.min(1000, Math.floor(smallest / 5)));
    this.timer = setInterval(() => this.check(), every);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private compute(pairCode: string): QuoteState {
    const t = this.latestTime(pairCode);
    return t !== undefined && this.now() - t <= this.limitMs(pairCode) ? 'live' : 'delayed';
  }

  private update(pairCode: string): boolean {
    const next = this.compute(pairCode);
    if (this.states.get(pairCode) === next) return false;
    this.states.set(pairCode, next);
    for (const l of this.listeners) {
      try {
        l(pairCode, next);
      } catch {
        // a listener's failure is its own
      }
    }
    return true;
  }
}
