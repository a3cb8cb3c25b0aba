/**
 * Money on the wire (spec section 3 Transaction / Payment method / Deposit result / Withdrawal
 * result; section 7 Money): payment methods, deposit and withdrawal requests and results, the
 * deposit confirmation, the transaction as the server sends it, the transaction list query and
 * its pagination, the demo reset, the provider webhook payloads and `payment_status_update`.
 *
 * Amounts on the wire are decimal numbers with the currency's decimals; the server counts
 * integer minor units (money.ts). An amount that arrives with more decimals than its currency
 * has is refused, never rounded. Rules and flows: docs/money.md.
 */
import * as v from 'valibot';
import { CurrencyCodeSchema, RateTableSchema, configuredRateTable, findCurrency, rateVia, type Currency, type RateTable } from './currencies';
import { boundedString } from './validation';

// ---- constants ----------------------------------------------------------------------------
export const PAYMENT_CATEGORIES = ['cards', 'bank', 'crypto'] as const;
export type PaymentCategory = (typeof PAYMENT_CATEGORIES)[number];
/** `crypto_address` is the white-label crypto integration; `oxapay_link` the crypto payment link. */
export const INTEGRATION_TYPES = ['manual', 'crypto_address', 'oxapay_link'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const TRANSACTION_TYPES = ['deposit', 'withdrawal'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const APPROVAL_STATUSES = ['pending', 'processing', 'approved', 'failed', 'expired', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
/** The three statuses lists show and filter by (spec section 4, approval_status display). */
export const LIST_STATUSES = ['pending', 'completed', 'failed'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];
/** Which stored statuses each list status stands for. */
export const LIST_STATUS_MEMBERS: Record<ListStatus, readonly ApprovalStatus[]> = {
  pending: ['pending', 'processing'],
  completed: ['approved'],
  failed: ['failed', 'expired', 'cancelled'],
};
/** The SPA's page-size choices (spec section 9 leaves the values open). */
export const TRANSACTION_PAGE_SIZES = [10, 20, 50, 100] as const;
export const TRANSACTIONS_PAGE_DEFAULT = 10;
export const TRANSACTIONS_PAGE_MAX = 100;
/** The CSV export holds at most this many rows (newest first). */
export const TRANSACTIONS_EXPORT_CAP = 10_000;
/** An unconfirmed manual deposit expires after this long. */
export const MANUAL_DEPOSIT_TTL_MS = 30 * 60 * 1000;
/** A crypto-address deposit or a payment-link invoice expires after this long without payment. */
export const CRYPTO_DEPOSIT_TTL_MS = 60 * 60 * 1000;
/** The currency the available_sums of an ALL-currency method are stored in. */
export const SUMS_BASE_CURRENCY = 'USD';
export const DEMO_RESET_MESSAGE = 'demo_reseted';
/** Socket events of this area. */
export const PAYMENT_STATUS_UPDATE_EVENT = 'payment_status_update';
export const GET_PAYMENT_METHODS_EVENT = 'get_payment_methods';
export const INIT_PAYMENT_SYSTEMS_EVENT = 'init_payment_systems';
/** Webhook signature headers: the white-label crypto provider and the OxaPay-style link provider. */
export const CRYPTO_SIGNATURE_HEADER = 'x-signature';
export const OXAPAY_SIGNATURE_HEADER = 'hmac';

export const PaymentErrorText = {
  methodNotFound: 'Payment method not found',
  depositDisabled: 'This payment method does not accept deposits',
  withdrawDisabled: 'This payment method does not support withdrawals',
  currencyNotSupported: 'This payment method does not support the currency',
  amountTooLow: 'Amount too low',
  amountTooHigh: 'Amount too high',
  insufficientBalance: 'Insufficient balance',
  realOnly: 'Only the real account can be used for deposits and withdrawals',
  transactionNotFound: 'Transaction not found',
  notConfirmable: 'This deposit can no longer be confirmed',
  notManual: 'Only a manual deposit is confirmed by the payer',
  requestIdReused: 'client_request_id was already used for a different request',
  invalidSignature: 'Invalid signature',
  unknownInvoice: 'Unknown invoice',
  invoiceMismatch: 'Invoice does not belong to this transaction',
  amountMismatch: 'Amount does not match the transaction',
  currencyMismatch: 'Currency does not match the transaction',
  hashReused: 'Transaction hash already used',
  providerFailed: 'Failed to create deposit',
  providerUnavailable: 'The payment provider is not answering. Nothing was charged; try again in a few minutes.',
  payoutRefused: 'The payment provider refused the payout. The amount is back on your balance.',
  payoutUnknown: 'The payment provider did not confirm the payout in time: it is being checked',
  cardNumberLength: 'Card number must have 12 to 19 digits',
  cardNumberInvalid: 'Card number is not valid: check the digits',
} as const;

/**
 * The names of the payment methods the server seeds (server/domain/payments/methods.ts). The
 * server keeps them in English, as the spec's payloads do; the SPA shows the descriptive ones in
 * the reader's language (src/i18n/server-texts.ts) and brand names as they are.
 */
export const PaymentMethodName = {
  card: 'Visa / Mastercard',
  bankTransfer: 'Bank transfer (SEPA)',
  usdtTrc20: 'USDT (TRC20)',
  bitcoin: 'Bitcoin',
  cryptoLink: 'Crypto payment link (OxaPay)',
} as const;

/** The seeded methods' estimated_processing_time texts (English on the wire; the SPA translates them). */
export const ProcessingTimeText = {
  withinDay: 'up to 24 hours',
  businessDays: '1-3 business days',
  withinHour: 'up to 1 hour',
  instant: 'instant',
} as const;

// ---- amounts ------------------------------------------------------------------------------

/**
 * A decimal amount as the client sends it: a JSON number or a decimal string ("12.50").
 * Whether it fits the currency's decimals is checked with the currency (toMinor).
 */
export const AmountInputSchema = v.pipe(
  v.union(
    [
      v.pipe(v.number('Amount must be a number'), v.finite('Amount must be a number')),
      v.pipe(v.string('Amount must be a number'), v.trim(), v.regex(/^-?\d{1,15}(\.\d{1,18})?$/, 'Amount must be a number')),
    ],
    'Amount must be a number',
  ),
  v.check((a) => Number(a) > 0, 'Amount must be greater than 0'),
);
export type AmountInput = v.InferOutput<typeof AmountInputSchema>;

/** A positive rate as an exact fraction num/den of its 15 significant digits. */
function rational(rate: number): { num: bigint; den: bigint } {
  if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError('rate must be a positive number');
  const [mantissa, exp] = rate.toExponential(14).split('e');
  const digits = BigInt(mantissa.replace('.', ''));
  const e = Number(exp) - 14;
  return e >= 0 ? { num: digits * 10n ** BigInt(e), den: 1n } : { num: digits, den: 10n ** BigInt(-e) };
}

/**
 * Convert minor units of `from` into minor units of `to` at `rate` (units of `to` per 1 unit of
 * `from`: Rate.rate from contract/currencies.ts rateVia or the server's rate provider), exactly
 * (integer arithmetic on the rate's 15 significant digits). `down` rounds toward zero (the rule
 * for computed amounts); `up` is for lower bounds and for what a payer is asked to send.
 */
export function convertMinor(amountMinor: number, from: Currency, to: Currency, rate: number, round: 'down' | 'up' = 'down'): number {
  if (from.iso_code === to.iso_code) return amountMinor;
  const r = rational(rate);
  const num = BigInt(amountMinor) * r.num * 10n ** BigInt(to.decimals);
  const den = r.den * 10n ** BigInt(from.decimals);
  let q = num / den;
  if (round === 'up' && q * den !== num) q += 1n;
  const n = Number(q);
  if (!Number.isSafeInteger(n)) throw new RangeError('amount out of range');
  return n;
}

/** A rate as displayed and stored with a payment: toward zero at 6 significant decimals (at least 6 decimals). */
export function displayRate(rate: number): number {
  if (rate >= 1) return Math.floor(rate * 1_000_000) / 1_000_000;
  const decimals = Math.min(18, 6 + Math.max(0, -Math.floor(Math.log10(rate)) - 1));
  const p = 10 ** decimals;
  return Math.floor(rate * p) / p;
}

// ---- crypto networks ----------------------------------------------------------------------

/**
 * The decimals an amount can have on a coin's network (what a wallet can actually send):
 * USDT is a 6-decimal token on TRC20 and ERC20 and an 18-decimal one on BEP20; BTC has 8
 * (satoshi), ETH 18, ... A network's decimals above the currency's own `decimals` (what the
 * ledger stores) are capped at those. Key: "CURRENCY:NETWORK" (network as in
 * PaymentMethod.crypto_network, upper case), else the coin alone.
 */
export const NETWORK_DECIMALS: Readonly<Record<string, number>> = {
  'USDT:TRC20': 6,
  'USDT:ERC20': 6,
  'USDT:BEP20': 18,
  'USDT:SOL': 6,
  'USDT:POLYGON': 6,
  'USDT:TON': 6,
  USDT: 6,
  'BTC:BITCOIN': 8,
  BTC: 8,
  'ETH:ERC20': 18,
  'ETH:ETHEREUM': 18,
  ETH: 18,
};

/** The decimals a payment in `currency` on `network` is rounded to (capped at the currency's own). */
export function paymentDecimals(currency: Currency, network: string | null): number {
  const code = currency.iso_code;
  const d = (network ? NETWORK_DECIMALS[`${code}:${network.toUpperCase()}`] : undefined) ?? NETWORK_DECIMALS[code] ?? currency.decimals;
  return Math.min(d, currency.decimals);
}

/** Minor units rounded to a coarser number of decimals: up (what a payer sends) or down (what is paid out). */
export function roundToDecimals(minor: number, currencyDecimals: number, decimals: number, round: 'up' | 'down'): number {
  if (decimals >= currencyDecimals) return minor;
  const step = 10 ** (currencyDecimals - decimals);
  return (round === 'up' ? Math.ceil(minor / step) : Math.floor(minor / step)) * step;
}

// ---- round limits -------------------------------------------------------------------------

/** The largest 1-2-5 x 10^n step (minor units, at least 1) not above a fifth of `minor`. */
export function limitStep(minor: number): number {
  const target = minor / 5;
  if (target < 1) return 1;
  let step = 1;
  for (let p = 1; p <= target * 10; p *= 10) {
    for (const f of [1, 2, 5]) if (f * p <= target) step = f * p;
  }
  return step;
}

/**
 * A converted method range as round figures: min up and max down to a 1-2-5 step of their
 * size (docs/money.md, "Limits in other currencies": $10 -> €8.62 -> €9, not "€8.62"), so the
 * range only shrinks. When rounding would leave no amount, the exact range stays.
 */
export function roundLimits(min: number, max: number): { min: number; max: number } {
  const sMin = limitStep(min);
  const sMax = limitStep(max);
  const rMin = Math.ceil(min / sMin) * sMin;
  const rMax = Math.floor(max / sMax) * sMax;
  return rMin <= rMax && rMax > 0 ? { min: rMin, max: rMax } : { min, max };
}

// ---- payment methods ----------------------------------------------------------------------

export const AvailableSumsSchema = v.object({
  min: v.number(),
  max: v.number(),
  /** The currency min and max are in: the method's currency, USD for an ALL-currency method, or the requested currency. */
  currency: v.string(),
});
export type AvailableSums = v.InferOutput<typeof AvailableSumsSchema>;

export const PaymentMethodSchema = v.object({
  id: v.string(),
  name: v.string(),
  /** File name under /payment_methods/ (spec: the SPA loads `${apiBase}/payment_methods/${avatar_url}`). */
  avatar_url: v.string(),
  category: v.picklist(PAYMENT_CATEGORIES),
  /** ISO country code or 'ALL'. */
  country_code: v.string(),
  /** The account currency the method serves, or 'ALL'. */
  currency_code: v.string(),
  supports_all_currencies: v.boolean(),
  integration_type: v.picklist(INTEGRATION_TYPES),
  available_sums: AvailableSumsSchema,
  /** The currency the payer pays in (USDT, BTC) when it differs from the account currency; null = the account currency. */
  payment_currency: v.nullable(v.string()),
  crypto_network: v.nullable(v.string()),
  is_active: v.boolean(),
  deposit_enabled: v.boolean(),
  withdraw_enabled: v.boolean(),
  /** How long a withdrawal through this method takes ("up to 24 hours"). */
  estimated_processing_time: v.string(),
  /** True for a sandbox method / a payment made through one (PAYMENTS_MODE=sandbox: no real money moves); the SPA labels it "Sandbox". */
  sandbox: v.optional(v.boolean()),
  /**
   * The rates of the payload the method came in (PaymentMethodsResult.rates): the SPA attaches
   * them to each method it receives, so the method's limits convert with the server's prices.
   * The server never sends it per method.
   */
  rates: v.optional(RateTableSchema),
});
export type PaymentMethod = v.InferOutput<typeof PaymentMethodSchema>;

/** Whether a method serves deposits/withdrawals in an account currency. */
export function methodSupportsCurrency(method: Pick<PaymentMethod, 'currency_code' | 'supports_all_currencies'>, currency: string): boolean {
  return method.supports_all_currencies || method.currency_code === 'ALL' || method.currency_code === currency.toUpperCase();
}

/**
 * A method's min and max in an account currency, in minor units. A method's own currency keeps
 * its stored bounds; an ALL-currency method's USD bounds are converted at the rates (the
 * given `rates` (the server's), else the method's attached ones (the SPA), else the configured ones: min up, max down) and
 * shown as round figures (roundLimits), so the range never leaves the stored one. Null when
 * the method does not serve the currency.
 */
export function sumsInMinor(
  method: Pick<PaymentMethod, 'currency_code' | 'supports_all_currencies' | 'available_sums' | 'rates'>,
  currencyCode: string,
  rates?: RateTable,
): { min: number; max: number; currency: Currency } | null {
  const target = findCurrency(currencyCode);
  const base = findCurrency(method.available_sums.currency);
  if (!target || !base || !methodSupportsCurrency(method, target.iso_code)) return null;
  const minBase = Math.round(method.available_sums.min * 10 ** base.decimals);
  const maxBase = Math.round(method.available_sums.max * 10 ** base.decimals);
  if (base.iso_code === target.iso_code) return { min: minBase, max: maxBase, currency: target };
  const rate = rateVia(rates ?? method.rates ?? configuredRateTable(), base.iso_code, target.iso_code).rate;
  const round = roundLimits(convertMinor(minBase, base, target, rate, 'up'), convertMinor(maxBase, base, target, rate, 'down'));
  return { ...round, currency: target };
}

/** GET /api/v2/payments/methods?currency=&direction= */
export const PaymentMethodsQuerySchema = v.object({
  currency: v.optional(CurrencyCodeSchema),
  direction: v.optional(v.picklist(['deposit', 'withdrawal', 'all'], 'Direction must be deposit, withdrawal or all'), 'all'),
});
export type PaymentMethodsQuery = v.InferOutput<typeof PaymentMethodsQuerySchema>;

/** Socket `get_payment_methods`: no payload, or {currency?, direction?}. */
export const GetPaymentMethodsSchema = v.optional(
  v.object({
    currency: v.optional(CurrencyCodeSchema),
    direction: v.optional(v.picklist(['deposit', 'withdrawal', 'all']), 'all'),
  }),
  {},
);
export type GetPaymentMethods = v.InferOutput<typeof GetPaymentMethodsSchema>;

export const PaymentMethodsResultSchema = v.object({
  payment_systems: v.array(PaymentMethodSchema),
  /** Every currency's rate against USD when the list was made (the market's prices; docs/money.md). */
  rates: v.optional(RateTableSchema),
});
export type PaymentMethodsResult = v.InferOutput<typeof PaymentMethodsResultSchema>;
/** Socket `init_payment_systems`. */
export const InitPaymentSystemsSchema = PaymentMethodsResultSchema;

// ---- requests -----------------------------------------------------------------------------

const requiredFields =
  (labels: Record<string, string>) =>
  (issue: v.ObjectIssue): string => {
    const key = issue.path?.[issue.path.length - 1]?.key;
    return typeof key === 'string' ? `${labels[key] ?? key} is required` : 'Request body must be a JSON object';
  };

export const PaymentMethodIdSchema = v.pipe(
  v.string('Payment method must be a string'),
  v.trim(),
  v.minLength(1, 'Payment method is required'),
  v.maxLength(64, 'Payment method must be at most 64 characters'),
);
export const PaymentClientRequestIdSchema = v.pipe(
  v.string('client_request_id must be a string'),
  v.regex(/^[A-Za-z0-9_-]{8,64}$/, 'client_request_id must be 8 to 64 characters of A-Z, a-z, 0-9, _ or -'),
);
const RealAccountSchema = v.optional(v.picklist(['real'], PaymentErrorText.realOnly), 'real');
const PaymentSystemSchema = v.optional(boundedString(64, 'payment_system must be at most 64 characters'));

/** POST /api/v2/transactions/deposit */
export const DepositRequestSchema = v.object(
  {
    amount: AmountInputSchema,
    currency: CurrencyCodeSchema,
    account_type: RealAccountSchema,
    payment_system: PaymentSystemSchema,
    payment_method_id: PaymentMethodIdSchema,
    client_request_id: v.optional(PaymentClientRequestIdSchema),
  },
  requiredFields({ amount: 'Amount', currency: 'Currency', payment_method_id: 'Payment method' }),
);
export type DepositRequestInput = v.InferInput<typeof DepositRequestSchema>;
export type DepositRequest = v.InferOutput<typeof DepositRequestSchema>;

const TransactionIdInputSchema = v.pipe(
  v.union(
    [
      v.pipe(v.number('transaction_id must be a positive whole number'), v.integer('transaction_id must be a positive whole number')),
      v.pipe(v.string('transaction_id must be a positive whole number'), v.regex(/^\d{1,15}$/, 'transaction_id must be a positive whole number')),
    ],
    'transaction_id must be a positive whole number',
  ),
  v.transform(Number),
  v.minValue(1, 'transaction_id must be a positive whole number'),
  v.maxValue(Number.MAX_SAFE_INTEGER, 'transaction_id must be a positive whole number'),
);

/** POST /api/v2/payments/deposit/confirmation: the payer says the manual transfer is done. */
export const DepositConfirmationSchema = v.object(
  { transaction_id: TransactionIdInputSchema },
  requiredFields({ transaction_id: 'transaction_id' }),
);
export type DepositConfirmation = v.InferOutput<typeof DepositConfirmationSchema>;

export const REQUISITES_MIN_LENGTH = 3;
export const REQUISITES_MAX_LENGTH = 256;

// ---- card numbers (the requisites of a card method) ----------------------------------------

export const CARD_NUMBER_MIN_DIGITS = 12;
export const CARD_NUMBER_MAX_DIGITS = 19;
/** What a masked card number starts with ("•••• 1111"). */
export const CARD_NUMBER_MASK = '••••';

/** Whether a method pays out to a bank card, so its requisites are a card number. */
export function isCardMethod(method: { category: string }): boolean {
  return method.category === 'cards';
}

/** The digits of a typed card number (spaces and hyphens between them are allowed), or null when anything else is in it. */
export function cardDigits(text: string): string | null {
  const compact = text.replace(/[\s-]/g, '');
  return /^\d+$/.test(compact) ? compact : null;
}

/** The Luhn check digit test every payment card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export type CardNumberProblem = 'length' | 'checksum';

/** Why a typed card number is refused: not 12 to 19 digits, or a failed Luhn check; null when it is fine. */
export function cardNumberProblem(text: string): CardNumberProblem | null {
  const digits = cardDigits(text);
  if (digits === null || digits.length < CARD_NUMBER_MIN_DIGITS || digits.length > CARD_NUMBER_MAX_DIGITS) return 'length';
  return luhnValid(digits) ? null : 'checksum';
}

/**
 * Withdrawal requisites as they are shown back to their owner: a card number (12 to 19 digits,
 * spaces and hyphens allowed) becomes "•••• 1111"; anything else (an IBAN, a wallet address)
 * stays as it is. The stored row keeps the whole number for the operator.
 */
export function maskedRequisites(text: string): string {
  const digits = cardDigits(text);
  if (digits === null || digits.length < CARD_NUMBER_MIN_DIGITS || digits.length > CARD_NUMBER_MAX_DIGITS) return text;
  return `${CARD_NUMBER_MASK} ${digits.slice(-4)}`;
}
export const PaymentDetailsSchema = v.object(
  {
    requisites: v.pipe(
      v.string('Requisites must be a string'),
      v.trim(),
      v.minLength(REQUISITES_MIN_LENGTH, `Requisites must be at least ${REQUISITES_MIN_LENGTH} characters`),
      v.maxLength(REQUISITES_MAX_LENGTH, `Requisites must be at most ${REQUISITES_MAX_LENGTH} characters`),
    ),
    payment_method: v.optional(boundedString(64, 'payment_details.payment_method must be at most 64 characters')),
  },
  requiredFields({ requisites: 'Requisites' }),
);

/** POST /api/v2/transactions/withdrawal (from the real account only). */
export const WithdrawalRequestSchema = v.object(
  {
    amount: AmountInputSchema,
    currency: CurrencyCodeSchema,
    payment_method_id: PaymentMethodIdSchema,
    account_type: RealAccountSchema,
    payment_system: PaymentSystemSchema,
    payment_details: PaymentDetailsSchema,
    client_request_id: v.optional(PaymentClientRequestIdSchema),
  },
  requiredFields({ amount: 'Amount', currency: 'Currency', payment_method_id: 'Payment method', payment_details: 'Payment details' }),
);
export type WithdrawalRequestInput = v.InferInput<typeof WithdrawalRequestSchema>;
export type WithdrawalRequest = v.InferOutput<typeof WithdrawalRequestSchema>;

/** POST /api/v2/payments/reset-demo-balance */
export const DemoResetSchema = v.object({ currency: CurrencyCodeSchema }, requiredFields({ currency: 'Currency' }));
export type DemoReset = v.InferOutput<typeof DemoResetSchema>;
export const DemoResetResultSchema = v.object({
  new_balance: v.record(v.string(), v.number()),
  message: v.literal(DEMO_RESET_MESSAGE),
});
export type DemoResetResult = v.InferOutput<typeof DemoResetResultSchema>;

// ---- transaction list query ---------------------------------------------------------------

const queryInt = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(`${name} must be a whole number`),
    v.regex(/^\d{1,9}$/, `${name} must be a whole number`),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

/**
 * A date bound: YYYY-MM-DD (a UTC day) or unix seconds. Parsed to milliseconds: a day's start
 * for date_from, the day's last millisecond for date_to (date_to is inclusive).
 */
export function parseDateBound(text: string, end: boolean): number | null {
  if (/^\d{1,11}$/.test(text)) {
    const ms = Number(text) * 1000;
    return end ? ms + 999 : ms;
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  return end ? ms + 86_400_000 - 1 : ms;
}

const dateBound = (name: string, end: boolean) =>
  v.pipe(
    v.string(`${name} must be a date`),
    v.trim(),
    v.check((s) => parseDateBound(s, end) !== null, `${name} must be a date (YYYY-MM-DD) or unix seconds`),
    v.transform((s) => parseDateBound(s, end) as number),
  );

/** GET /api/v2/transactions and /api/v2/transactions/export.csv; 'all' (or no value) is no filter. */
export const TransactionListQuerySchema = v.pipe(
  v.object({
    page: v.optional(queryInt('page', 1, 1_000_000), '1'),
    limit: v.optional(queryInt('limit', 1, TRANSACTIONS_PAGE_MAX), String(TRANSACTIONS_PAGE_DEFAULT)),
    type: v.optional(v.picklist([...TRANSACTION_TYPES, 'all'], 'Type must be deposit, withdrawal or all'), 'all'),
    status: v.optional(v.picklist([...LIST_STATUSES, 'all'], 'Status must be pending, completed, failed or all'), 'all'),
    account: v.optional(v.picklist(['real', 'demo', 'all'], 'Account must be real, demo or all'), 'all'),
    date_from: v.optional(dateBound('date_from', false)),
    date_to: v.optional(dateBound('date_to', true)),
  }),
  v.check(
    (q) => q.date_from === undefined || q.date_to === undefined || q.date_from <= q.date_to,
    'date_from must not be after date_to',
  ),
);
export type TransactionListQueryInput = v.InferInput<typeof TransactionListQuerySchema>;
export type TransactionListQuery = v.InferOutput<typeof TransactionListQuerySchema>;

// ---- outputs ------------------------------------------------------------------------------

export const RequisitSchema = v.object({
  card_number: v.nullable(v.string()),
  cardholder_name: v.nullable(v.string()),
  iban: v.optional(v.nullable(v.string())),
  bank_name: v.optional(v.nullable(v.string())),
  beneficiary: v.optional(v.nullable(v.string())),
});
export type Requisit = v.InferOutput<typeof RequisitSchema>;

/** A deposit or withdrawal as the server sends it (spec section 3, Transaction). Times are unix seconds. */
export const TransactionSchema = v.object({
  id: v.number(),
  transaction_type: v.picklist(TRANSACTION_TYPES),
  /** Same as transaction_type. */
  type: v.picklist(TRANSACTION_TYPES),
  approval_status: v.picklist(APPROVAL_STATUSES),
  /** The payment method's name. */
  method: v.string(),
  payment_method_id: v.string(),
  account_type: v.literal('real'),
  amount: v.number(),
  currency_code: v.string(),
  final_amount: v.number(),
  amount_payment_currency: v.number(),
  payment_currency: v.string(),
  /** Units of payment_currency per 1 unit of currency_code, 6 decimals. */
  exchange_rate: v.number(),
  /** Real balance around the credit (deposit) or the hold (withdrawal); null until then. */
  balance_before: v.nullable(v.number()),
  balance_after: v.nullable(v.number()),
  created_at: v.number(),
  updated_at: v.number(),
  expired_at: v.nullable(v.number()),
  crypto_wallet_address: v.nullable(v.string()),
  crypto_network: v.nullable(v.string()),
  crypto_transaction_hash: v.nullable(v.string()),
  payment_url: v.nullable(v.string()),
  integration_type: v.picklist(INTEGRATION_TYPES),
  invoice_id: v.nullable(v.string()),
  error_message: v.nullable(v.string()),
  user_id: v.number(),
  requisit: v.nullable(RequisitSchema),
  /** Withdrawals: where the money goes, as the user typed it; a card number masked to its last four digits ("•••• 1111"). */
  payment_details: v.nullable(v.object({ requisites: v.string(), payment_method: v.nullable(v.string()) })),
  estimated_processing_time: v.nullable(v.string()),
  /** True for a sandbox method / a payment made through one (PAYMENTS_MODE=sandbox: no real money moves); the SPA labels it "Sandbox". */
  sandbox: v.optional(v.boolean()),
});
export type Transaction = v.InferOutput<typeof TransactionSchema>;

export const IntegrationDataSchema = v.object({
  amount: v.number(),
  currency: v.string(),
  crypto_network: v.nullable(v.string()),
  crypto_wallet_address: v.nullable(v.string()),
  /** data: URL of a PNG QR code (crypto address integration). */
  qr_code: v.nullable(v.string()),
  payment_url: v.nullable(v.string()),
});
export type IntegrationData = v.InferOutput<typeof IntegrationDataSchema>;

/** data of POST /api/v2/transactions/deposit (spec section 3, Deposit result). */
export const DepositResultSchema = v.object({
  transaction_id: v.number(),
  status: v.picklist(APPROVAL_STATUSES),
  currency: v.string(),
  payment_method: v.string(),
  integration_type: v.picklist(INTEGRATION_TYPES),
  payment_url: v.nullable(v.string()),
  amount_payment_currency: v.number(),
  payment_currency: v.string(),
  /** Units of payment_currency per 1 unit of currency, as stored with the deposit. */
  exchange_rate: v.optional(v.number()),
  expired_at: v.nullable(v.number()),
  invoice_id: v.nullable(v.string()),
  /** Null for a manual deposit (its requisites are in transaction.requisit). */
  integration_data: v.nullable(IntegrationDataSchema),
  /** True for a sandbox method / a payment made through one (PAYMENTS_MODE=sandbox: no real money moves); the SPA labels it "Sandbox". */
  sandbox: v.optional(v.boolean()),
  transaction: v.object({
    id: v.number(),
    amount: v.number(),
    amount_payment_currency: v.number(),
    status: v.picklist(APPROVAL_STATUSES),
    created_at: v.number(),
    expired_at: v.nullable(v.number()),
    requisit: v.nullable(RequisitSchema),
  }),
});
export type DepositResult = v.InferOutput<typeof DepositResultSchema>;

/** data of POST /api/v2/payments/deposit/confirmation; `status: true` is the spec's flag. */
export const DepositConfirmationResultSchema = v.object({
  status: v.literal(true),
  transaction: TransactionSchema,
});
export type DepositConfirmationResult = v.InferOutput<typeof DepositConfirmationResultSchema>;

/** data of POST /api/v2/transactions/withdrawal (spec section 3, Withdrawal result). */
export const WithdrawalResultSchema = v.object({
  transaction_id: v.number(),
  payment_method: v.string(),
  status: v.picklist(APPROVAL_STATUSES),
  estimated_processing_time: v.string(),
  transaction: TransactionSchema,
});
export type WithdrawalResult = v.InferOutput<typeof WithdrawalResultSchema>;

export const TransactionPaginationSchema = v.object({
  page: v.number(),
  limit: v.number(),
  total_count: v.number(),
  total_pages: v.number(),
});
export type TransactionPagination = v.InferOutput<typeof TransactionPaginationSchema>;

/** data of GET /api/v2/transactions */
export const TransactionListResultSchema = v.object({
  transactions: v.array(TransactionSchema),
  pagination: TransactionPaginationSchema,
});
export type TransactionListResult = v.InferOutput<typeof TransactionListResultSchema>;
/** data of GET /api/v2/transactions/{id} */
export const TransactionResultSchema = v.object({ transaction: TransactionSchema });

/** Socket `payment_status_update`, sent to the owner on every status change. */
export const PaymentStatusUpdateEventSchema = v.object({
  transaction: v.object({
    id: v.number(),
    status: v.picklist(APPROVAL_STATUSES),
    transaction_type: v.optional(v.picklist(TRANSACTION_TYPES)),
  }),
});
export type PaymentStatusUpdateEvent = v.InferOutput<typeof PaymentStatusUpdateEventSchema>;

// ---- sandbox checkout (the payment-link provider's hosted page) ---------------------------

export const CheckoutParamsSchema = v.object({
  invoice: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown invoice')),
});
/** The Pay / Cancel form: the invoice's own token, against cross-site form posts. */
export const CheckoutFormSchema = v.object({
  token: v.pipe(v.string('token is required'), v.minLength(1, 'token is required'), v.maxLength(256, 'token is too long')),
});

// ---- provider webhooks --------------------------------------------------------------------

const AMOUNT_MESSAGE = 'amount must be a decimal number';
const WebhookAmountSchema = v.union(
  [
    v.pipe(v.number(AMOUNT_MESSAGE), v.finite(AMOUNT_MESSAGE), v.minValue(0, AMOUNT_MESSAGE)),
    v.pipe(v.string(AMOUNT_MESSAGE), v.regex(/^\d{1,15}(\.\d{1,18})?$/, AMOUNT_MESSAGE)),
  ],
  AMOUNT_MESSAGE,
);
const webhookText = (name: string, max: number, min = 0) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.minLength(min, `${name} is required`),
    v.maxLength(max, `${name} must be at most ${max} characters`),
  );
const webhookFields = (labels: string[]) => (issue: v.ObjectIssue) => {
  const key = issue.path?.[issue.path.length - 1]?.key;
  return typeof key === 'string' && labels.includes(key) ? `${key} is required` : 'Callback body must be a JSON object';
};

/**
 * POST /api/v2/payments/webhooks/crypto: the white-label crypto provider reports a transfer to
 * a deposit address. Signed: header x-signature = hex HMAC-SHA256 of the raw body.
 */
export const CryptoWebhookSchema = v.object(
  {
    event_id: webhookText('event_id', 64, 1),
    /** Our transaction id, echoed back. */
    order_id: v.pipe(v.string('order_id must be a string'), v.regex(/^\d{1,15}$/, 'order_id must be a transaction id')),
    address: webhookText('address', 128, 1),
    network: webhookText('network', 32),
    currency: webhookText('currency', 16, 1),
    amount: WebhookAmountSchema,
    tx_hash: v.pipe(v.string('tx_hash must be a string'), v.regex(/^(0x)?[0-9a-fA-F]{64}$/, 'tx_hash must be 64 hex digits')),
    confirmations: v.pipe(
      v.number('confirmations must be a whole number'),
      v.integer('confirmations must be a whole number'),
      v.minValue(0, 'confirmations must be a whole number'),
      v.maxValue(1_000_000, 'confirmations is too large'),
    ),
    status: v.picklist(['confirming', 'confirmed', 'failed'], 'Unknown status'),
    date: v.optional(v.pipe(v.number('date must be unix seconds'), v.integer('date must be unix seconds'))),
  },
  webhookFields(['event_id', 'order_id', 'address', 'network', 'currency', 'amount', 'tx_hash', 'confirmations', 'status']),
);
export type CryptoWebhook = v.InferOutput<typeof CryptoWebhookSchema>;

/**
 * POST /api/v2/payments/webhooks/oxapay: OxaPay-style invoice callback. Signed: header `hmac`
 * = hex HMAC-SHA512 of the raw body. Status names are matched case-insensitively (OxaPay's
 * legacy API capitalises them).
 */
export const OXAPAY_STATUSES = ['waiting', 'paying', 'confirming', 'paid', 'expired', 'failed', 'cancelled', 'canceled'] as const;
export const OxapayWebhookSchema = v.object(
  {
    track_id: webhookText('track_id', 64, 1),
    status: v.pipe(webhookText('status', 32, 1), v.toLowerCase(), v.picklist(OXAPAY_STATUSES, 'Unknown status')),
    type: v.optional(webhookText('type', 32)),
    amount: WebhookAmountSchema,
    currency: webhookText('currency', 16, 1),
    /** Our transaction id, given when the invoice was created. */
    order_id: webhookText('order_id', 64, 1),
    date: v.optional(v.pipe(v.number('date must be unix seconds'), v.integer('date must be unix seconds'))),
    txs: v.optional(
      v.pipe(
        v.array(
          v.object({
            tx_hash: v.optional(webhookText('tx_hash', 128)),
            network: v.optional(webhookText('network', 64)),
            currency: v.optional(webhookText('currency', 16)),
          }),
          'txs must be a list',
        ),
        v.maxLength(20, 'txs has too many entries'),
      ),
    ),
  },
  webhookFields(['track_id', 'status', 'amount', 'currency', 'order_id']),
);
export type OxapayWebhook = v.InferOutput<typeof OxapayWebhookSchema>;
