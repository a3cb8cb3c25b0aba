/**
 * Live socket events (spec section 7, "Live socket"; websocket transport only).
 * Payloads from the client are validated on the server with these schemas; payloads to the
 * client are typed with them so both sides agree.
 */
import * as v from 'valibot';
import { BalancesSchema, TimeframeSchema } from './user';
import { CandleSchema, PairSchema, RateSchema } from './market';
import { CurrencySchema, RateTableSchema } from './currencies';

// ---- client -> server -------------------------------------------------------------------
export const ProvideTokenSchema = v.object({ token: v.pipe(v.string(), v.maxLength(4096)) });
export const GetUserdataSchema = v.object({ token: v.pipe(v.string(), v.maxLength(4096)) });
export const SelectPairSchema = v.object({
  pair_code: v.pipe(v.string(), v.minLength(1), v.maxLength(32)),
  timeframe: TimeframeSchema,
  token: v.optional(v.pipe(v.string(), v.maxLength(4096))),
});
export type SelectPair = v.InferOutput<typeof SelectPairSchema>;

// ---- server -> client -------------------------------------------------------------------
export const UserdataEventSchema = v.object({
  userdata: v.object({ balances: BalancesSchema, currency_code: v.string() }),
  valuts: v.array(CurrencySchema),
  /** Every currency against USD at the market's prices, with source and time (issue 26; absent from an older server). */
  rates: v.optional(RateTableSchema),
});
export const InitValutsSchema = v.object({ valuts_data: v.array(CurrencySchema) });
export const InitPairsSchema = v.object({ pairs: v.array(PairSchema) });
export const PairsRatesSchema = v.object({ rates: v.array(RateSchema) });
export const PriceUpdateSchema = v.object({ pair_code: v.string(), price: v.number(), time: v.optional(v.number()) });
export const NewPriceSchema = v.object({
  pair_code: v.string(),
  open: v.number(),
  high: v.number(),
  low: v.number(),
  close: v.number(),
  /** Bucket start, unix seconds. */
  time: v.number(),
  timeframe: TimeframeSchema,
});
export const InitCandlesSchema = v.object({
  pair_code: v.string(),
  timeframe: TimeframeSchema,
  candles: v.array(CandleSchema),
});
export const UpdateBalancesSchema = v.object({ balances: BalancesSchema });
export const PaymentStatusUpdateSchema = v.object({
  transaction: v.object({ id: v.number(), status: v.string() }),
});
export const SocketErrorSchema = v.object({ event: v.string(), message: v.string() });
/**
 * polling_status: the server is watching (reconciling with the provider) the status of one of
 * the user's pending deposits (`polling: true`), or has stopped because it reached a final status.
 */
export const PollingStatusSchema = v.object({ transaction_id: v.number(), polling: v.boolean() });
/** pong: the answer to ping, with the server time (ms). */
export const PongSchema = v.object({ time: v.optional(v.number()) });

export type UserdataEvent = v.InferOutput<typeof UserdataEventSchema>;
export type InitPairs = v.InferOutput<typeof InitPairsSchema>;
/** pairs: the pair list changed (an operator enabled or disabled a pair); init_pairs' shape. */
export type PairsChanged = InitPairs;
export type PairsRates = v.InferOutput<typeof PairsRatesSchema>;
export type PriceUpdate = v.InferOutput<typeof PriceUpdateSchema>;
export type NewPrice = v.InferOutput<typeof NewPriceSchema>;
export type InitCandles = v.InferOutput<typeof InitCandlesSchema>;
export type UpdateBalances = v.InferOutput<typeof UpdateBalancesSchema>;
export type PaymentStatusUpdate = v.InferOutput<typeof PaymentStatusUpdateSchema>;
export type SocketError = v.InferOutput<typeof SocketErrorSchema>;
export type PollingStatus = v.InferOutput<typeof PollingStatusSchema>;

/** Socket timing constants (spec section 9). */
export const SOCKET_PING_INTERVAL_MS = 30_000;
export const SOCKET_USERDATA_DELAY_MS = 100;
export const SOCKET_MAX_RECONNECTS = 5;
export const SOCKET_BACKOFF_BASE_MS = 1_000;
export const SOCKET_BACKOFF_CAP_MS = 30_000;
export const PAYMENT_METHODS_LOADING_TIMEOUT_MS = 10_000;
