/**
 * Orders on the wire (spec section 3, Order; section 7, Orders): the create-order body, the
 * list query, the close body, the order as the server sends it, the pagination block and the
 * `order_update` socket event. The stake rules (min/max bet, decimals) live here too so the bet
 * panel and the server refuse the same amounts with the same words. Rules: docs/orders.md.
 */
import * as v from 'valibot';
import { CurrencyCodeSchema, findCurrency, type Currency } from './currencies';
import { formatMinor, toMinor } from './money';
import { ChainLinkSchema } from './market';

// ---- constants ----------------------------------------------------------------------------
export const ORDER_MIN_EXPIRY_SECONDS = 5;
export const ORDER_MAX_EXPIRY_SECONDS = 4 * 3600;
export const ORDER_DIRECTIONS = ['up', 'down'] as const;
export const TRADING_ACCOUNTS = ['RealAccount', 'DemoAccount'] as const;
export const ORDER_STATUSES = ['open', 'closed'] as const;
/** `refunded`: no price was known at expiry (tick log lost), the stake went back. */
export const ORDER_RESULTS = ['won', 'lost', 'tie', 'closed_early', 'refunded'] as const;
export const ORDERS_PAGE_MAX = 100;
export const ORDERS_PAGE_DEFAULT = 10;
/** GET /api/v1/orders/all returns at most this many per request (newest first); `truncated` says when more exist. */
export const ORDERS_ALL_CAP = 1000;
/** GET /api/platform/orders/{id}/ticks returns at most this many ticks per request. */
export const ORDER_TICKS_CAP = 5000;
/** Early-close margin kept by the platform (ARCHITECTURE.md section 5). */
export const EARLY_CLOSE_MARGIN = 0.05;
/** How long the indicative close quote of GET /orders/{id} is meant to be shown before a refresh. */
export const CLOSE_QUOTE_VALID_MS = 3000;
/** The socket event the server emits to the owner's room when an order opens or settles. */
export const ORDER_UPDATE_EVENT = 'order_update';

export const OrderErrorText = {
  orderNotFound: 'Order not found',
  alreadyClosed: 'Order is already closed',
  priceUnavailable: 'Price unavailable, try again',
  priceChanged: 'Price changed, please confirm again',
  expiring: 'Order has expired and is being settled',
  requestIdReused: 'client_request_id was already used for a different order',
  currencyMismatch: 'Currency does not match the order',
  riskLimit: "This order would exceed the house's risk limit for this pair. Try a smaller amount or the other direction",
  quotesDelayed: 'Quotes for this pair are delayed; trading resumes when they are back',
} as const;

export type OrderDirection = (typeof ORDER_DIRECTIONS)[number];
export type TradingAccount = (typeof TRADING_ACCOUNTS)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type OrderResult = (typeof ORDER_RESULTS)[number];

// ---- stake rules --------------------------------------------------------------------------

/** Smallest bet in minor units: 1 whole unit for fiat and USDT, max_bet / 5000 for BTC and ETH. */
export function minBetMinor(currency: Currency): number {
  if (currency.kind === 'fiat' || currency.iso_code === 'USDT') return 10 ** currency.decimals;
  return Math.max(1, Math.floor(maxBetMinor(currency) / 5000));
}

/** Largest bet in minor units (currency.max_bet). */
export function maxBetMinor(currency: Currency): number {
  return toMinor(currency.max_bet, currency.decimals) ?? Math.floor(currency.max_bet * 10 ** currency.decimals);
}

/**
 * Why a stake is refused, in plain words, or null when it is acceptable. The amount is a decimal
 * in the currency; more decimals than the currency has is refused (never rounded).
 */
export function stakeProblem(amount: number, currencyCode: string): string | null {
  const currency = findCurrency(currencyCode);
  if (!currency) return 'Unknown currency';
  if (!Number.isFinite(amount) || amount <= 0) return 'Amount must be greater than 0';
  const max = maxBetMinor(currency);
  const tooBig = `Maximum bet is ${formatMinor(max, currency.decimals)} ${currency.iso_code}`;
  // Checked before the decimals so an absurd amount gets the limit, not a decimals message.
  if (amount > currency.max_bet) return tooBig;
  const minor = toMinor(amount, currency.decimals);
  if (minor === null) return `Amount may have at most ${currency.decimals} decimals in ${currency.iso_code}`;
  const min = minBetMinor(currency);
  if (minor < min) return `Minimum bet is ${formatMinor(min, currency.decimals)} ${currency.iso_code}`;
  if (minor > max) return tooBig;
  return null;
}

// ---- inputs -------------------------------------------------------------------------------

/** Object message: "<Label> is required" for a missing key, otherwise the body is not an object. */
const requiredFields =
  (labels: Record<string, string>) =>
  (issue: v.ObjectIssue): string => {
    const key = issue.path?.[issue.path.length - 1]?.key;
    return typeof key === 'string' ? `${labels[key] ?? key} is required` : 'Request body must be a JSON object';
  };

/** Pair codes are upper case ("eurusd" is EURUSD). */
const PairCodeSchema = v.pipe(
  v.string('Pair code must be a string'),
  v.trim(),
  v.minLength(1, 'Pair code is required'),
  v.maxLength(32, 'Pair code must be at most 32 characters'),
  v.toUpperCase(),
);
const DirectionSchema = v.picklist(ORDER_DIRECTIONS, 'Direction must be up or down');
const TradingAccountSchema = v.picklist(TRADING_ACCOUNTS, 'Trading account must be RealAccount or DemoAccount');
export const ClientRequestIdSchema = v.pipe(
  v.string('client_request_id must be a string'),
  v.regex(/^[A-Za-z0-9_-]{8,64}$/, 'client_request_id must be 8 to 64 characters of A-Z, a-z, 0-9, _ or -'),
);

/** POST /api/v2/orders */
export const CreateOrderSchema = v.pipe(
  v.object(
    {
      pair_code: PairCodeSchema,
      direction: DirectionSchema,
      amount: v.pipe(v.number('Amount must be a number'), v.finite('Amount must be a number')),
      currency: CurrencyCodeSchema,
      trading_account: TradingAccountSchema,
      expiry: v.pipe(
        v.number('Expiry must be a number of seconds'),
        v.integer('Expiry must be a whole number of seconds'),
        v.minValue(ORDER_MIN_EXPIRY_SECONDS, `Expiry must be at least ${ORDER_MIN_EXPIRY_SECONDS} seconds`),
        v.maxValue(ORDER_MAX_EXPIRY_SECONDS, `Expiry must be at most ${ORDER_MAX_EXPIRY_SECONDS} seconds`),
      ),
      client_request_id: v.optional(ClientRequestIdSchema),
    },
    requiredFields({
      pair_code: 'Pair code',
      direction: 'Direction',
      amount: 'Amount',
      currency: 'Currency',
      trading_account: 'Trading account',
      expiry: 'Expiry',
    }),
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = stakeProblem(dataset.value.amount, dataset.value.currency);
    if (problem) {
      addIssue({
        message: problem,
        path: [{ type: 'object', origin: 'value', input: dataset.value, key: 'amount', value: dataset.value.amount }],
      });
    }
  }),
);
export type CreateOrderInput = v.InferInput<typeof CreateOrderSchema>;
export type CreateOrder = v.InferOutput<typeof CreateOrderSchema>;

/** A query-string integer within bounds (query values arrive as strings). */
const queryInt = (name: string, min: number, max: number, digits = 9) =>
  v.pipe(
    v.string(`${name} must be a whole number`),
    v.regex(new RegExp(`^\\d{1,${digits}}$`), `${name} must be a whole number`),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

/** GET /api/platform/orders */
export const ListOrdersQuerySchema = v.object({
  status: v.optional(v.picklist(['open', 'closed', 'all'], 'Status must be open, closed or all'), 'all'),
  symbol: v.optional(PairCodeSchema),
  currency: v.optional(CurrencyCodeSchema),
  trading_account: v.optional(
    v.picklist(['RealAccount', 'DemoAccount', 'all'], 'Trading account must be RealAccount, DemoAccount or all'),
    'all',
  ),
  limit: v.optional(queryInt('limit', 1, ORDERS_PAGE_MAX), String(ORDERS_PAGE_DEFAULT)),
  offset: v.optional(queryInt('offset', 0, 1_000_000_000), '0'),
});
export type ListOrdersQueryInput = v.InferInput<typeof ListOrdersQuerySchema>;
export type ListOrdersQuery = v.InferOutput<typeof ListOrdersQuerySchema>;

/** GET /api/v1/orders/all: optional paging; without it, the newest ORDERS_ALL_CAP orders. */
export const AllOrdersQuerySchema = v.object({
  limit: v.optional(queryInt('limit', 1, ORDERS_ALL_CAP), String(ORDERS_ALL_CAP)),
  offset: v.optional(queryInt('offset', 0, 1_000_000_000), '0'),
});
export type AllOrdersQueryInput = v.InferInput<typeof AllOrdersQuerySchema>;
export type AllOrdersQuery = v.InferOutput<typeof AllOrdersQuerySchema>;

/** GET /api/platform/orders/{id}/ticks: `after_seq` continues a truncated answer. */
export const OrderTicksQuerySchema = v.object({
  limit: v.optional(queryInt('limit', 1, ORDER_TICKS_CAP), String(ORDER_TICKS_CAP)),
  after_seq: v.optional(queryInt('after_seq', 0, Number.MAX_SAFE_INTEGER, 15)),
});
export type OrderTicksQueryInput = v.InferInput<typeof OrderTicksQuerySchema>;
export type OrderTicksQuery = v.InferOutput<typeof OrderTicksQuerySchema>;

/**
 * POST /api/platform/orders/{id}/close. `currency`, when sent, must be the order's currency.
 * `expected_min` (decimal in the order's currency): refuse the close with 409 when the value
 * computed at the moment of closing is below it (the user confirmed a quote; the market moved).
 */
export const CloseOrderSchema = v.object({
  currency: v.optional(CurrencyCodeSchema),
  expected_min: v.optional(
    v.pipe(v.number('expected_min must be a number'), v.finite('expected_min must be a number'), v.minValue(0, 'expected_min must not be negative')),
  ),
});
export type CloseOrderInput = v.InferInput<typeof CloseOrderSchema>;
export type CloseOrder = v.InferOutput<typeof CloseOrderSchema>;

// ---- outputs ------------------------------------------------------------------------------
export const TickRefSchema = v.object({
  /** Milliseconds since the epoch. */
  time: v.number(),
  seq: v.number(),
  price: v.number(),
});
export type TickRef = v.InferOutput<typeof TickRefSchema>;

export const OrderSchema = v.object({
  order_id: v.number(),
  pair_code: v.string(),
  /** Same as pair_code (the spec names both). */
  pair: v.string(),
  pair_human_code: v.string(),
  direction: DirectionSchema,
  trading_account: TradingAccountSchema,
  balance_type: v.picklist(['RealBalance', 'DemoBalance']),
  status: v.picklist(ORDER_STATUSES),
  result: v.nullable(v.picklist(ORDER_RESULTS)),
  currency: v.string(),
  /** Stake, decimal in `currency`. */
  amount: v.number(),
  /** Same as amount (the stake is always in the account's currency). */
  amount_in_user_currency: v.number(),
  /**
   * amount / (open_price x currency rate), so the spec's live estimate
   * `currency_amount x current_price x rate - amount_in_user_currency` = stake x (current/open - 1).
   */
  currency_amount: v.number(),
  open_price: v.number(),
  close_price: v.nullable(v.number()),
  /** Latest price for an open order (null before any tick); the close price for a closed one. */
  current_price: v.nullable(v.number()),
  /** Digits after the decimal point of the pair's prices at acceptance. */
  price_precision: v.number(),
  /** Fraction of the stake paid on top of it on a win (0.82). */
  payout_rate: v.number(),
  /** stake x (1 + payout_rate), rounded toward zero. */
  potential_return: v.number(),
  /** payout - stake once closed; null while open. */
  profit_loss: v.nullable(v.number()),
  /** Amount credited at close (0 on a loss); null while open. */
  payout: v.nullable(v.number()),
  expiry_seconds: v.number(),
  /** Unix seconds. */
  created_at: v.number(),
  expires_at: v.number(),
  close_time: v.nullable(v.number()),
  /** The same instants in milliseconds, for countdowns. */
  created_at_ms: v.number(),
  expires_at_ms: v.number(),
  is_closed: v.boolean(),
  /** True when the user closed the order early. */
  is_manual: v.boolean(),
  /**
   * Why the order closed: expiry, early_close, no_price_at_expiry or stale_quotes_at_expiry (both
   * refunded; docs/trading.md, exit price at expiry). Null while open.
   */
  close_reason: v.nullable(v.picklist(['expiry', 'early_close', 'no_price_at_expiry', 'stale_quotes_at_expiry'])),
  entry_tick: TickRefSchema,
  exit_tick: v.nullable(TickRefSchema),
});
export type Order = v.InferOutput<typeof OrderSchema>;

export const CloseQuoteSchema = v.object({
  /** Decimal in `currency`: what closing now would pay (indicative; the close pays the value at that moment). */
  amount: v.number(),
  currency: v.string(),
  /** Unix milliseconds. */
  quoted_at: v.number(),
  valid_for_ms: v.number(),
});
export type CloseQuote = v.InferOutput<typeof CloseQuoteSchema>;

export const OrderDetailsSchema = v.object({
  ...OrderSchema.entries,
  close_quote: v.nullable(CloseQuoteSchema),
});
export type OrderDetails = v.InferOutput<typeof OrderDetailsSchema>;

export const PaginationSchema = v.object({
  total_count: v.number(),
  limit: v.number(),
  offset: v.number(),
  has_more: v.boolean(),
  next_offset: v.nullable(v.number()),
});
export type Pagination = v.InferOutput<typeof PaginationSchema>;

/** data of POST /api/v2/orders and POST /api/platform/orders/{id}/close */
export const OrderResponseSchema = v.object({ order: OrderSchema });
export type OrderResponse = v.InferOutput<typeof OrderResponseSchema>;
/** data of GET /api/platform/orders/{id} */
export const OrderDetailsResponseSchema = v.object({ order: OrderDetailsSchema });
export type OrderDetailsResponse = v.InferOutput<typeof OrderDetailsResponseSchema>;
/** data of GET /api/platform/orders */
export const OrderListResponseSchema = v.object({ orders: v.array(OrderSchema), pagination: PaginationSchema });
export type OrderListResponse = v.InferOutput<typeof OrderListResponseSchema>;
/**
 * data of GET /api/v1/orders/all: `orders` newest first, at most `limit` (default and maximum
 * ORDERS_ALL_CAP); `truncated` is true when the user has more orders than this answer holds
 * (the pagination block says where the next page starts).
 */
export const OrderAllResponseSchema = v.object({ orders: v.array(OrderSchema), truncated: v.boolean(), pagination: PaginationSchema });
export type OrderAllResponse = v.InferOutput<typeof OrderAllResponseSchema>;

/**
 * data of GET /api/platform/orders/{id}/ticks: the pair's tick log from the order's entry tick to
 * its exit tick (to the latest tick while open), read back so anyone can check the settlement.
 * Seqs are consecutive per pair, so the span numbered `to_seq - from_seq + 1` ticks; `ticks` are
 * the ones the log holds (after `after_seq`), oldest first, at most `limit`.
 */
export const OrderTicksResponseSchema = v.object({
  order_id: v.number(),
  pair_code: v.string(),
  status: v.picklist(ORDER_STATUSES),
  /** As recorded on the order. */
  entry_tick: TickRefSchema,
  exit_tick: v.nullable(TickRefSchema),
  /** The log's ticks with the entry and exit seqs (null: the log does not hold it). */
  logged_entry_tick: v.nullable(TickRefSchema),
  logged_exit_tick: v.nullable(TickRefSchema),
  /** The span: the entry seq to the exit seq (while open: the pair's latest seq). */
  from_seq: v.number(),
  to_seq: v.number(),
  ticks: v.array(TickRefSchema),
  /** More logged ticks of the span follow; ask again with after_seq = next_after_seq. */
  truncated: v.boolean(),
  next_after_seq: v.nullable(v.number()),
  /** Ticks of the span the log holds, and the numbered ones it does not. */
  logged_count: v.number(),
  missing_count: v.number(),
  /** Retention (TICK_RETENTION_HOURS) deleted ticks of this span. */
  pruned: v.boolean(),
  retention_hours: v.number(),
});
export type OrderTicksResponse = v.InferOutput<typeof OrderTicksResponseSchema>;

/** Socket `order_update`: sent to the owner when an order opens and when it closes. */
export const OrderUpdateEventSchema = v.object({
  change: v.picklist(['opened', 'settled']),
  order: OrderSchema,
});
export type OrderUpdateEvent = v.InferOutput<typeof OrderUpdateEventSchema>;

// ---- receipts (GET /api/platform/orders/{id}/receipt; docs/market.md, tick log chain) --------

export { ChainLinkSchema, type ChainLink } from './market';

export const ReceiptTickSchema = v.object({
  seq: v.number(),
  /** Milliseconds since the epoch. */
  time: v.number(),
  price: v.number(),
  /** The tick-log batch holding this tick; null until that batch is written (well under a second). */
  batch: v.nullable(ChainLinkSchema),
});
export type ReceiptTick = v.InferOutput<typeof ReceiptTickSchema>;

export const RECEIPT_RULES = ['open', 'last_tick_at_or_before_expiry', 'stale_at_expiry', 'no_price_at_expiry', 'early_close'] as const;
export type ReceiptRule = (typeof RECEIPT_RULES)[number];

export const OrderReceiptSchema = v.object({
  order_id: v.number(),
  pair_code: v.string(),
  pair_human_code: v.string(),
  direction: DirectionSchema,
  trading_account: TradingAccountSchema,
  currency: v.string(),
  /** Decimal in `currency`. */
  stake: v.number(),
  /** Payout on a win as a fraction of the stake (0.85 = 85 %). */
  payout_rate: v.number(),
  status: v.picklist(ORDER_STATUSES),
  result: v.nullable(v.picklist(ORDER_RESULTS)),
  /** Decimal in `currency`; null while open. */
  payout: v.nullable(v.number()),
  /** Milliseconds since the epoch. */
  accepted_at: v.number(),
  expires_at: v.number(),
  closed_at: v.nullable(v.number()),
  entry_tick: ReceiptTickSchema,
  /** The tick the order settled or closed on; null while open and when refunded. */
  exit_tick: v.nullable(ReceiptTickSchema),
  /** The exit rule applied (docs/trading.md). */
  rule: v.picklist(RECEIPT_RULES),
  /** The pair's stale-quote limit the rule used, ms. */
  stale_limit_ms: v.number(),
  /** Prices of this pair are made by the simulator (not quoted by a market). */
  simulated: v.boolean(),
  /** Hash of the newest batch when the receipt was made: the chain from entry to here is in the log. */
  chain_head: v.nullable(v.string()),
});
export type OrderReceipt = v.InferOutput<typeof OrderReceiptSchema>;
