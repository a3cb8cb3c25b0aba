/**
 * The tick bus (docs/cluster.md, "The bus"): the feed leader publishes every numbered tick, and
 * every other node feeds them into its own market service (candles, the candle ring, stale-quote
 * state, settlement and alert inputs, the local socket broadcast).
 *
 * Ticks are sent in one message per event-loop turn (`TickPublisher`): a simulator step of every
 * pair is one message, not forty. A message carries the leader's epoch; a receiver ignores
 * messages of an older epoch than the newest it has seen (a deposed leader's late ticks).
 *
 * Redis pub/sub delivers a message to whoever is subscribed at that moment, in publish order per
 * publisher; a node that was disconnected misses what was sent meanwhile (its tick ring restarts
 * at the next tick it gets; older ticks are read from the tick log).
 */
import type { Redis } from 'ioredis';
import type { Tick } from '../domain/market/types';

export const TICK_CHANNEL = 'tt:ticks';

export interface TickMessage {
  /** The leader's epoch (cluster_leases.epoch when it took the lock). */
  epoch: number;
  /** The leader's NODE_ID. */
  node: string;
  ticks: Tick[];
}

/** What the cluster needs from a bus (Redis pub/sub in production; tests may use another). */
export interface TickBus {
  publish(message: TickMessage): void;
  /** Every message published by any node (including this one), in order. */
  subscribe(handler: (message: TickMessage) => void): void;
  close(): Promise<void>;
}

/** Compact wire form: [pair_code, seq, time, price] per tick. */
type WireTick = [string, number, number, number];

export function encodeTicks(message: TickMessage): string {
  const ticks: WireTick[] = message.ticks.map((t) => [t.pair_code, t.seq, t.time, t.price]);
  return JSON.stringify({ e: message.epoch, n: message.node, t: ticks });
}

/** The message, or null when it is not one of ours (a foreign publisher on the channel). */
export function decodeTicks(text: string): TickMessage | null {
  try {
    const raw = JSON.parse(text) as { e?: unknown; n?: unknown; t?: unknown };
    if (typeof raw.e !== 'number' || !Number.isSafeInteger(raw.e) || typeof raw.n !== 'string' || !Array.isArray(raw.t)) return null;
    const ticks: Tick[] = [];
    for (const w of raw.t as unknown[]) {
      if (!Array.isArray(w) || w.length !== 4) return null;
      const [pair_code, seq, time, price] = w as unknown[];
      if (typeof pair_code !== 'string' || !Number.isSafeInteger(seq) || typeof time !== 'number' || typeof price !== 'number') return null;
      ticks.push({ pair_code, seq: seq as number, time, price });
    }
    return { epoch: raw.e, node: raw.n, ticks };
  } catch {
    return null;
  }
}

/**
 * Redis pub/sub: one connection publishes, one subscribes (a subscribed ioredis connection can
 * run nothing else). The caller owns neither: `close` only unsubscribes.
 */
export class RedisTickBus implements TickBus {
  private handler: ((message: TickMessage) => void) | null = null;
  private readonly onMessage = (channel: string, text: string) => {
    if (channel !== TICK_CHANNEL || !this.handler) return;
    const message = decodeTicks(text);
    if (message) this.handler(message);
  };

  constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  publish(message: TickMessage): void {
    if (message.ticks.length === 0) return;
    this.pub.publish(TICK_CHANNEL, encodeTicks(message)).catch(this.onError);
  }

  subscribe(handler: (message: TickMessage) => void): void {
    this.handler = handler;
    this.sub.on('message', this.onMessage);
    // ioredis subscribes again by itself after a reconnect.
    this.sub.subscribe(TICK_CHANNEL).catch(this.onError);
  }

  async close(): Promise<void> {
    this.handler = null;
    this.sub.off('message', this.onMessage);
    // Not awaited: with Redis down the command would wait in the offline queue for ever.
    this.sub.unsubscribe(TICK_CHANNEL).catch(() => undefined);
  }
}

/**
 * Collects a turn's ticks and publishes them as one message (setImmediate). One publisher per
 * term: its epoch is fixed, and a deposed leader's `cancel` drops what it had not sent.
 */
export class TickPublisher {
  private batch: Tick[] = [];
  private scheduled = false;
  private cancelled = false;

  constructor(
    private readonly bus: TickBus,
    private readonly node: string,
    readonly epoch: number,
  ) {}

  add(tick: Tick): void {
    if (this.cancelled) return;
    this.batch.push(tick);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  flush(): void {
    this.scheduled = false;
    if (this.batch.length === 0) return;
    const ticks = this.batch;
    this.batch = [];
    if (this.cancelled) return;
    this.bus.publish({ epoch: this.epoch, node: this.node, ticks });
  }

  cancel(): void {
    this.cancelled = true;
    this.batch = [];
  }
}
