/**
 * The pairs as this node operates them (the `pairs` table read at start, catalogue.ts for what
 * only the code knows), each with its live series (series.ts): the pair list traders get, with
 * where its prices come from and whether they are delayed, the operators' enable/disable, and
 * every pair's latest price.
 */
import type { Pair, Rate } from '../../../contract/market';
import type { DB } from '../../db';
import type { QuoteWatch } from './quote-watch';
import type { Series } from './series';
import { copyPair } from './catalogue';
import { pairActiveFlags } from './repository';

export class PairBook {
  /** Every operated pair's series, by pair code. */
  readonly series = new Map<string, Series>();
  /** The pairs in display order. */
  private readonly pairs: Pair[] = [];
  /** Stale-quote state per pair (quote-watch.ts); set once the pairs are known. */
  quotes: QuoteWatch | null = null;

  constructor(
    /** Whether the pair's prices are made up by the simulator (shown as "Simulated"). */
    private readonly isSimulated: (pairCode: string) => boolean,
    /** A pair's rate at a price, with its 24-hour base (day-change.ts). */
    private readonly rateOf: (pairCode: string, price: number) => Rate = (pair_code, current_price) => ({ pair_code, current_price }),
  ) {}

  add(s: Series): void {
    this.series.set(s.pair.pair_code, s);
    this.pairs.push(s.pair);
  }

  /** The active pairs' series, in display order. */
  active(): Series[] {
    return [...this.series.values()].filter((s) => s.pair.is_active !== false);
  }

  listPairs(): Pair[] {
    return this.pairs.map((p) => this.withQuoteFacts(copyPair(p)));
  }

  /**
   * Changes whenever `listPairs()` would answer differently: the pairs are fixed at start except
   * what withQuoteFacts adds (simulated, quotes) and is_active (setActive). init_pairs is encoded
   * once per value of this (server/http/shared-packets.ts).
   */
  pairsVersion(): string {
    let key = '';
    for (const p of this.pairs) {
      key += `${p.is_active === false ? 0 : 1}${this.isSimulated(p.pair_code) ? 1 : 0}`;
      key += p.is_active !== false && this.quotes ? `${this.quotes.state(p.pair_code)},` : '-,';
    }
    return key;
  }

  getPair(pairCode: string): Pair | undefined {
    const s = this.series.get(pairCode);
    return s ? this.withQuoteFacts(copyPair(s.pair)) : undefined;
  }

  /** An operator enabled or disabled a pair (pair-admin.ts): the cached pair follows the row. */
  setActive(pairCode: string, active: boolean): boolean {
    const s = this.series.get(pairCode);
    if (!s || s.pair.is_active === active) return false;
    s.pair.is_active = active;
    return true;
  }

  /** Follow the stored active flags; returns the pairs that changed. */
  async refreshActive(db: DB): Promise<string[]> {
    const rows = await pairActiveFlags(db);
    const changed: string[] = [];
    for (const r of rows) if (this.setActive(r.pair_code, r.is_active)) changed.push(r.pair_code);
    return changed;
  }

  /** A pair exists and is not explicitly inactive. */
  isActive(pairCode: string): boolean {
    const s = this.series.get(pairCode);
    return !!s && s.pair.is_active !== false;
  }

  /** The latest price of every pair that has one, with its price 24 h ago (the pairs_rates payload). */
  rates(): Rate[] {
    const out: Rate[] = [];
    for (const s of this.series.values()) {
      const t = s.ring.latest();
      if (t) out.push(this.rateOf(t.pair_code, t.price));
    }
    return out;
  }

  /** The pair as traders see it: where its prices come from and whether they are delayed. */
  private withQuoteFacts(p: Pair): Pair {
    p.simulated = this.isSimulated(p.pair_code);
    if (p.is_active !== false && this.quotes) p.quotes = this.quotes.state(p.pair_code);
    return p;
  }
}
