/**
 * OxaPay v1 on the wire (https://docs.oxapay.com, pages quoted in docs/money.md "Payments"):
 * the answers of the endpoints the live adapters call and the webhook bodies OxaPay posts.
 * Only the fields the platform reads are declared; everything else OxaPay sends is ignored
 * (valibot objects drop unknown keys). Status names are compared in lower case (the legacy API
 * capitalised them, v1 sends them in lower case).
 *
 * Every answer is wrapped as `{ data, message, error, status, version }`; a request succeeded
 * when the HTTP status is 200 and `status` is 200.
 */
import * as v from 'valibot';

export const OXAPAY_HMAC_HEADER = 'hmac';
export const OXAPAY_MERCHANT_KEY_HEADER = 'merchant_api_key';
export const OXAPAY_PAYOUT_KEY_HEADER = 'payout_api_key';

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const decimal = v.union([v.pipe(v.number(), v.finite(), v.minValue(0)), v.pipe(v.string(), v.regex(/^\d{1,15}(\.\d{1,18})?$/))]);
const status = v.pipe(v.string(), v.maxLength(32), v.toLowerCase());

export const OxapayEnvelopeSchema = v.object({
  data: v.optional(v.unknown()),
  message: v.optional(v.string()),
  error: v.optional(v.union([v.object({ type: v.optional(v.string()), key: v.optional(v.string()), message: v.optional(v.string()) }), v.array(v.unknown()), v.null()])),
  status: v.optional(v.number()),
  version: v.optional(v.string()),
});
export type OxapayEnvelope = v.InferOutput<typeof OxapayEnvelopeSchema>;

/** data of POST /v1/payment/invoice. */
export const OxapayInvoiceDataSchema = v.object({
  track_id: text(64),
  payment_url: v.pipe(v.string(), v.url()),
  expired_at: v.optional(v.number()),
});
export type OxapayInvoiceData = v.InferOutput<typeof OxapayInvoiceDataSchema>;

/** data of POST /v1/payment/white-label. */
export const OxapayWhiteLabelDataSchema = v.object({
  track_id: text(64),
  address: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  network: v.optional(text(64)),
  pay_amount: v.optional(decimal),
  pay_currency: v.optional(text(16)),
  expired_at: v.optional(v.number()),
});
export type OxapayWhiteLabelData = v.InferOutput<typeof OxapayWhiteLabelDataSchema>;

/** data of POST /v1/payout. */
export const OxapayPayoutDataSchema = v.object({ track_id: text(64), status });
export type OxapayPayoutData = v.InferOutput<typeof OxapayPayoutDataSchema>;

const TxSchema = v.object({
  tx_hash: v.optional(v.nullable(text(256))),
  network: v.optional(v.nullable(text(64))),
  currency: v.optional(v.nullable(text(16))),
  status: v.optional(v.nullable(text(32))),
});

/**
 * A payment as OxaPay reports it: the webhook body of an invoice / white-label payment, and
 * data of GET /v1/payment/{track_id} (reconciliation). `amount`/`currency` are the requested
 * ones (what the platform asked for); `order_id` is our transaction id.
 */
export const OxapayPaymentSchema = v.object({
  track_id: text(64),
  status,
  type: v.optional(text(32)),
  amount: decimal,
  currency: text(16),
  order_id: v.optional(v.nullable(text(64))),
  date: v.optional(v.number()),
  txs: v.optional(v.pipe(v.array(TxSchema), v.maxLength(50))),
});
export type OxapayPayment = v.InferOutput<typeof OxapayPaymentSchema>;

/** A payout as OxaPay reports it: the payout webhook body, and data of GET /v1/payout/{track_id}. */
export const OxapayPayoutSchema = v.object({
  track_id: text(64),
  status,
  type: v.optional(text(32)),
  address: v.optional(text(128)),
  amount: decimal,
  currency: text(16),
  network: v.optional(v.nullable(text(64))),
  tx_hash: v.optional(v.nullable(text(256))),
  date: v.optional(v.number()),
});
export type OxapayPayout = v.InferOutput<typeof OxapayPayoutSchema>;

/** Payment statuses (docs "Payment Status Table"). */
export const OXAPAY_PAYMENT_STATUSES = ['new', 'waiting', 'paying', 'paid', 'manual_accept', 'underpaid', 'refunding', 'refunded', 'expired'] as const;
/** Payout statuses (docs "Payout Status Table"). */
export const OXAPAY_PAYOUT_STATUSES = ['processing', 'pending', 'confirming', 'confirmed', 'canceled', 'rejected'] as const;
