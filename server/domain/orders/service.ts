/**
 * The orders service the routes and the socket layer use: placement, early close, the queries
 * and the settlement scheduler behind one object (ctx.services.orders). Every method returns
 * wire shapes (contract/orders.ts); the domain functions it calls hold the rules, and
 * repository.ts the queries.
 */
import { orderReceipt } from './receipt';
import type { OrderReceipt } from '../../../contract/orders';
import type {
  AllOrdersQuery,
  CloseOrder,
  CreateOrder,
  ListOrdersQuery,
  Order,
  OrderDetails,
  OrderTicksQuery,
  OrderTicksResponse,
  Pagination,
} from '../../../contract/orders';
import type { OrdersDeps } from './deps';
import { closeOrderEarly } from './early-close';
import { placeOrder, type Placer } from './placement';
import { getOrder, listAllOrders, listOrders, orderTicks, wire } from './queries';
import { earliestOpenAcceptedAt, findOrder, ordersByIds } from './repository';
import { SettlementScheduler } from './settlement';

export class OrdersService {
  readonly scheduler: SettlementScheduler;
  /**
   * Resolves once start() has settled the overdue orders and scheduled the rest. Fastify runs
   * onListen hooks after listen() has already resolved, so whoever must not race the start
   * (a test that restarts a server, an operator tool) waits on this.
   */
  readonly started: Promise<void>;
  private markStarted: (err?: unknown) => void = () => undefined;

  constructor(readonly deps: OrdersDeps) {
    this.scheduler = new SettlementScheduler(deps);
    this.started = new Promise<void>((resolve, reject) => {
      this.markStarted = (err) => (err === undefined ? resolve() : reject(err));
    });
    this.started.catch(() => undefined);
  }

  /**
   * Place an order for a user id, or for a token whose session the order's transaction reads
   * (placement.ts `Placer`); `created` is false when a client_request_id replay returned the
   * earlier order.
   */
  async place(who: Placer, input: CreateOrder): Promise<{ order: Order; created: boolean }> {
    const placed = await placeOrder(this.deps, who, input);
    if (placed.created) this.scheduler.schedule(placed.value);
    return { order: wire(this.deps, placed.value), created: placed.created };
  }

  async close(userId: number, orderId: number, input: CloseOrder): Promise<Order> {
    const row = await closeOrderEarly(this.deps, userId, orderId, input);
    this.scheduler.forget(orderId);
    return wire(this.deps, row);
  }

  get(userId: number, orderId: number): Promise<OrderDetails> {
    return getOrder(this.deps, userId, orderId);
  }

  list(userId: number, query: ListOrdersQuery): Promise<{ orders: Order[]; pagination: Pagination }> {
    return listOrders(this.deps, userId, query);
  }

  all(userId: number, query: AllOrdersQuery): Promise<{ orders: Order[]; truncated: boolean; pagination: Pagination }> {
    return listAllOrders(this.deps, userId, query);
  }

  /** The order's tick log from entry to exit (to now while open). */
  ticks(userId: number, orderId: number, query: OrderTicksQuery): Promise<OrderTicksResponse> {
    return orderTicks(this.deps, userId, orderId, query);
  }

  /** The order's receipt (receipt.ts): ticks, rule, result and the tick-log chain hashes. */
  receipt(userId: number, orderId: number): Promise<OrderReceipt> {
    return orderReceipt(this.deps, userId, orderId);
  }

  /** The wire shape of one order by id (for pushes), or null when it does not exist. */
  async byId(orderId: number): Promise<{ userId: number; order: Order } | null> {
    const row = await findOrder(this.deps.db, orderId);
    return row ? { userId: row.user_id, order: wire(this.deps, row) } : null;
  }

  /** The wire shapes of several orders by id (for grouped pushes), by id; missing ids are absent. */
  byIds(orderIds: readonly number[]): Promise<Map<number, { userId: number; order: Order }>> {
    return ordersByIds(this.deps.db, orderIds, (row) => ({ userId: row.user_id, order: wire(this.deps, row) }));
  }

  /** Acceptance time of the oldest open order (ticks from then on are still needed), or null: the tick log's retention floor. */
  earliestOpenAcceptedAt(): Promise<number | null> {
    return earliestOpenAcceptedAt(this.deps.db);
  }

  async start(): Promise<void> {
    try {
      await this.scheduler.start();
      this.markStarted();
    } catch (err) {
      this.markStarted(err);
      throw err;
    }
  }

  stop(): Promise<void> {
    return this.scheduler.stop();
  }
}
