/**
 * Domain events through a transactional outbox.
 *
 * `recordEvent` writes an event row inside the same database transaction as the change it
 * describes, so an event exists exactly when its change committed. The `EventDispatcher` reads
 * new rows (on a poke after each commit in this process, and on a short poll for changes made
 * by another process such as the operator CLI) and hands them to in-process listeners: the
 * socket layer pushes update_balances / payment_status_update, the Telegram notifier sends
 * messages. Listeners must be idempotent enough to tolerate a redelivery after a restart.
 *
 * Several nodes on one PostgreSQL database (`claim: true`, docs/cluster.md "Outbox"): an
 * in-memory cursor would deliver every event once per node and skip an id that commits after a
 * higher one. Instead a node claims the oldest undelivered rows with FOR UPDATE SKIP LOCKED,
 * hands them to its listeners and marks them delivered (`delivered_at`, migration 011) in the
 * same transaction: each event goes out once cluster-wide (pushes reach the user's sockets on any
 * node through the socket.io adapter), and a row that commits late is simply claimed later. A
 * node that dies mid-delivery rolls back its claim: the rows are delivered again by another.
 */
import { sql } from 'kysely';
import type { DB, Trx } from '../db';
import { prepared, preparedRows } from '../db/prepared';

export interface DomainEventMap {
  'balances.changed': { kind: string };
  'payment.status': { transaction_id: number; status: string; transaction_type: string };
  'order.opened': { order_id: number };
  'order.settled': { order_id: number; result: 'won' | 'lost' | 'tie' | 'closed'; payout: number; currency: string };
  'document.status': { document_id: number; status: string };
  'telegram.linked': { telegram_id: string | null };
  'alert.fired': { alert_id: number };
  'pairs.changed': { pair_code: string; is_active: boolean };
  'payment.polling': { transaction_id: number; polling: boolean };
  'support.updated': { ticket_id: number; message_id: number | null };
}
export type DomainEventType = keyof DomainEventMap;

export interface DomainEvent<T extends DomainEventType = DomainEventType> {
  id: number;
  type: T;
  userId: number | null;
  payload: DomainEventMap[T];
  createdAt: number;
}

export async function recordEvent<T extends DomainEventType>(
  trx: Trx,
  type: T,
  userId: number | null,
  payload: DomainEventMap[T],
  now = Date.now(),
): Promise<void> {
  await recordEvents(trx, [{ type, userId, payload } as EventRecord], now);
}

/** An event to record with recordEvents. */
export type EventRecord = { [T in DomainEventType]: { type: T; userId: number | null; payload: DomainEventMap[T] } }[DomainEventType];

/** Record several events in the order given, with multi-row inserts (a settlement batch). */
export async function recordEvents(trx: Trx, events: readonly EventRecord[], now = Date.now()): Promise<void> {
  if (events.length === 0) return;
  await insertEvents.run(
    trx,
    events.map((e) => ({ type: e.type, user_id: e.userId, payload: JSON.stringify(e.payload), created_at: now })),
  );
}

// Built once (server/db/prepared.ts): every order placed and settled records events.
const insertEvents = preparedRows((db, rows: { type: string; user_id: number | null; payload: string; created_at: number }[]) =>
  db.insertInto('domain_events').values(rows.map((p) => ({ type: p.type, user_id: p.user_id, payload: p.payload, created_at: p.created_at }))),
);

type Listener = (event: DomainEvent) => void | Promise<void>;

/** Events read and delivered per step of a drain (the loop yields between steps). */
export const DELIVERY_PAGE = 100;

// The cursor's read, built once: a drain follows every commit of this process.
const eventsAfter = prepared((db, p: { cursor: number }) =>
  db.selectFrom('domain_events').selectAll().where('id', '>', p.cursor).orderBy('id').limit(sql.lit(DELIVERY_PAGE)),
);

export interface DispatcherOptions {
  /** Claim undelivered rows instead of following a cursor (several nodes on PostgreSQL). */
  claim?: boolean;
  now?: () => number;
}

export class EventDispatcher {
  private cursor = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** A drain is due on the next turn and has not begun to read. */
  private scheduled = false;
  private again = false;
  /** After stop(): no drain starts any more (a commit finishing during shutdown still pokes). */
  private stopped = false;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly db: DB,
    private readonly pollMs = 250,
    private readonly onError: (err: unknown) => void = () => undefined,
    private readonly options: DispatcherOptions = {},
  ) {}

  /**
   * Start after the newest existing event: events from before this start are not replayed
   * (claiming: every undelivered event is delivered, whichever node recorded it).
   */
  async start(): Promise<void> {
    if (this.options.claim) {
      this.timer = setInterval(() => this.poke(), this.pollMs);
      this.timer.unref();
      return;
    }
    const row = await this.db
      .selectFrom('domain_events')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    this.cursor = Number(row?.max ?? 0);
    this.timer = setInterval(() => this.poke(), this.pollMs);
    this.timer.unref();
  }

  /**
   * Events recorded and not yet delivered (the metrics' outbox backlog): past this process's
   * cursor, or, when several nodes claim, every row without a delivery time.
   */
  async backlog(): Promise<number> {
    const q = this.db.selectFrom('domain_events').select((eb) => eb.fn.countAll<number>().as('n'));
    const row = await (this.options.claim ? q.where('delivered_at', 'is', null) : q.where('id', '>', this.cursor)).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  on<T extends DomainEventType>(type: T, listener: (event: DomainEvent<T>) => void | Promise<void>): () => void {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener as Listener);
    this.listeners.set(type, set);
    return () => set.delete(listener as Listener);
  }

  /**
   * Deliver whatever is new, from the next turn of the event loop: every commit of this process
   * pokes, and the pokes of one turn (a loop turn under load completes many orders) share one
   * read. A poke while a drain runs makes it run once more after it; one that comes before the
   * drain has begun needs nothing more, since the drain's read comes after its commit.
   */
  poke(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      if (!this.scheduled) this.again = true;
      return this.running;
    }
    this.scheduled = true;
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        this.scheduled = false;
        return this.drain();
      })
      // A drain that fails (the database gone or refusing) is reported, never an unhandled
      // rejection: the poll's and ctx.tx's pokes are not awaited. The next poke or poll retries.
      .catch((err: unknown) => {
        this.onError(err);
      })
      .finally(() => {
        this.running = null;
        // After stop() this poke returns at once (no drain starts).
        if (this.again) {
          this.again = false;
          void this.poke();
        }
      });
    return this.running;
  }

  private async drain(): Promise<void> {
    if (this.options.claim) return this.drainClaimed();
    for (;;) {
      const rows = await eventsAfter.all(this.db, { cursor: this.cursor });
      for (const row of rows) {
        this.cursor = row.id;
        await this.deliver(row);
      }
      // A short page was everything there was when it was read; what was recorded since poked
      // (this process) or comes with the next poll (another one). No second read to find nothing.
      if (rows.length < DELIVERY_PAGE) return;
      // A burst (thousands of settlements) is delivered a page at a time with the event loop
      // free in between: ticks and requests are not held up behind it.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Claim a page of undelivered events, deliver them and mark them, in one transaction; repeat. */
  private async drainClaimed(): Promise<void> {
    for (;;) {
      const delivered = await this.db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom('domain_events')
          .select(['id', 'type', 'user_id', 'payload', 'created_at'])
          .where('delivered_at', 'is', null)
          .orderBy('id')
          .limit(DELIVERY_PAGE)
          .forUpdate()
          .skipLocked()
          .execute();
        if (rows.length === 0) return 0;
        for (const row of rows) await this.deliver(row);
        await trx
          .updateTable('domain_events')
          .set({ delivered_at: (this.options.now ?? Date.now)() })
          .where('id', 'in', rows.map((r) => r.id))
          .execute();
        return rows.length;
      });
      if (delivered === 0) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private async deliver(row: { id: number; type: string; user_id: number | null; payload: string; created_at: number }): Promise<void> {
    const event: DomainEvent = {
      id: Number(row.id),
      type: row.type as DomainEventType,
      userId: row.user_id === null ? null : Number(row.user_id),
      payload: JSON.parse(row.payload),
      createdAt: Number(row.created_at),
    };
    for (const l of this.listeners.get(row.type) ?? []) {
      try {
        await l(event);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // A drain in progress is waited for; it starts no other (poke() does nothing once stopped).
    if (this.running) await this.running;
  }

  /** Drop delivered events older than `maxAgeMs`. */
  async prune(maxAgeMs: number, now = Date.now()): Promise<void> {
    if (this.options.claim) {
      await this.db.deleteFrom('domain_events').where('created_at', '<', now - maxAgeMs).where('delivered_at', 'is not', null).execute();
      return;
    }
    await this.db
      .deleteFrom('domain_events')
      .where('created_at', '<', now - maxAgeMs)
      .where('id', '<=', this.cursor)
      .execute();
  }
}
