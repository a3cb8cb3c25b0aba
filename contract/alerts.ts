/**
 * Price alerts (issue 16 item 7): "tell me when EUR/USD goes above 1.16000". Kept on the
 * server, fired once by the server when a tick reaches the level, delivered as the socket event
 * `price_alert` to every open session of the owner and through Telegram / email per the owner's
 * notification settings. Rules: docs/trader-tools.md.
 *
 *   GET    /api/v2/alerts          the owner's alerts (waiting first, then fired), newest first
 *   POST   /api/v2/alerts          {pair_code, direction, price} -> 201 {alert}
 *   DELETE /api/v2/alerts/:id      -> {deleted: true}; a deleted alert never fires
 *
 * The price is a decimal (string or number) with at most the pair's decimals; the server keeps
 * it as the pair's scaled integer (price x 10^precision) and compares integers. An alert must be
 * on the far side of the latest price (above: higher, below: lower), else it would fire at once.
 */
import * as v from 'valibot';

export const ALERT_DIRECTIONS = ['above', 'below'] as const;
export type AlertDirection = (typeof ALERT_DIRECTIONS)[number];

/** At most this many waiting alerts per user (fired ones do not count). */
export const MAX_PENDING_ALERTS = 20;

/** The socket event that tells the owner's sessions an alert fired. */
export const PRICE_ALERT_EVENT = 'price_alert';

export const AlertErrorText = {
  alertNotFound: 'Alert not found',
  tooManyAlerts: `At most ${MAX_PENDING_ALERTS} waiting alerts`,
  priceDecimals: 'The price has more decimals than the pair',
  aboveCurrent: 'An "above" alert must be higher than the current price',
  belowCurrent: 'A "below" alert must be lower than the current price',
  noPrice: 'This pair has no price yet',
  priceInvalid: 'Price must be a positive decimal number',
  directionInvalid: 'Direction must be above or below',
} as const;

const DECIMAL = /^\d{1,12}(\.\d{1,12})?$/;

export const CreateAlertSchema = v.strictObject(
  {
    pair_code: v.pipe(v.string('Pair is required'), v.trim(), v.minLength(1, 'Pair is required'), v.maxLength(32, 'Pair not found')),
    direction: v.picklist(ALERT_DIRECTIONS, AlertErrorText.directionInvalid),
    price: v.pipe(
      v.union([v.string(), v.number()], AlertErrorText.priceInvalid),
      v.transform((p) => (typeof p === 'number' ? (Number.isFinite(p) ? String(p) : '') : p.trim())),
      v.regex(DECIMAL, AlertErrorText.priceInvalid),
      v.check((p) => Number(p) > 0, AlertErrorText.priceInvalid),
    ),
  },
  'Unknown field',
);
export type CreateAlertInput = v.InferInput<typeof CreateAlertSchema>;

export const AlertSchema = v.object({
  alert_id: v.number(),
  pair_code: v.string(),
  pair_human_code: v.string(),
  direction: v.picklist(ALERT_DIRECTIONS),
  /** The level as a number (display) ... */
  price: v.number(),
  /** ... and exactly, with the pair's decimals. */
  price_text: v.string(),
  precision: v.number(),
  created_at_ms: v.number(),
  fired_at_ms: v.nullable(v.number()),
  /** The price of the tick that fired it. */
  fired_price: v.nullable(v.number()),
});
export type PriceAlert = v.InferOutput<typeof AlertSchema>;

export const AlertListSchema = v.object({ alerts: v.array(AlertSchema), max_pending: v.number() });
export type AlertList = v.InferOutput<typeof AlertListSchema>;

export const PriceAlertEventSchema = v.object({ alert: AlertSchema });
export type PriceAlertEvent = v.InferOutput<typeof PriceAlertEventSchema>;

/** price_text for a scaled integer: 116235 at precision 5 -> "1.16235". */
export function scaledToText(scaled: number, precision: number): string {
  const digits = Math.abs(scaled).toString().padStart(precision + 1, '0');
  return precision > 0 ? `${digits.slice(0, digits.length - precision)}.${digits.slice(digits.length - precision)}` : digits;
}

/** "1.16" at precision 5 -> 116000; null when it has more decimals than the precision. */
export function textToScaled(text: string, precision: number): number | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const [, whole, frac = ''] = m;
  if (/[1-9]/.test(frac.slice(precision))) return null;
  const n = Number(whole + frac.slice(0, precision).padEnd(precision, '0'));
  return Number.isSafeInteger(n) ? n : null;
}

/** A tick price (a float already rounded to the pair's precision) as the scaled integer. */
export function priceToScaled(price: number, precision: number): number {
  return Math.round(price * 10 ** precision);
}

/** Whether a tick at `tickScaled` reaches the alert's level. */
export function alertReached(direction: AlertDirection, levelScaled: number, tickScaled: number): boolean {
  return direction === 'above' ? tickScaled >= levelScaled : tickScaled <= levelScaled;
}
