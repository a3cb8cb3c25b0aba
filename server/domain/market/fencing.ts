/**
 * The market's part in a cluster (docs/cluster.md): the role a node's market plays, what a
 * leader holds for one term (server/cluster/node.ts hands it over), and the error a deposed
 * leader's tick-log write is refused with (the fencing token: every write checks its epoch first).
 */
import type { Trx } from '../../db';
import type { Tick } from './types';

/** `single`: a node of its own; in a cluster, the feed's `leader` or a `follower` (docs/cluster.md). */
export type MarketRole = 'single' | 'leader' | 'follower';

/** What a cluster leader's market needs for one term (server/cluster/node.ts). */
export interface LeaderTerm {
  epoch: number;
  /** Runs first inside every tick-log write; throws FencedError when the epoch is no longer current. */
  fence: (trx: Trx) => Promise<void>;
  /** Every tick this node numbered, as logged (to the tick bus). */
  publish: (tick: Tick) => void;
  /** A write was refused by the fence: another node leads now. */
  onFenced: () => void;
  /** Whether the lease is current: ticks are only numbered while it is (leadership.ts). */
  valid: () => boolean;
  /** Wait this long (still following the bus) before the term's first tick: the old leader's last ticks arrive. */
  handoverMs: number;
}

/** The tick log refused a write of a deposed leader. */
export class FencedError extends Error {
  constructor(
    readonly epoch: number,
    readonly current: number | null,
  ) {
    super(`feed epoch ${epoch} is no longer current (now ${current ?? 'none'})`);
    this.name = 'FencedError';
  }
}
