/**
 * Early-close pricing: the fair value of a running up/down order, treated as a cash-or-nothing
 * digital option paying stake x (1 + payout rate) if it finishes in the money.
 *
 *   T  = seconds left / (365 x 24 x 3600)                (years, as sigma is annualised)
 *   d2 = (ln(S/K) - sigma^2/2 x T) / (sigma x sqrt(T))   (S current price, K open price)
 *   P  = N(d2) for up, N(-d2) for down
 *   value = stake x (1 + payout) x P x (1 - margin), rounded toward zero to the minor unit.
 *
 * Pure functions only; the worked example is in docs/orders.md.
 */
import { EARLY_CLOSE_MARGIN, type OrderDirection } from '../../../contract/orders';

export const SECONDS_PER_YEAR = 365 * 24 * 3600;
const SQRT_PI = Math.sqrt(Math.PI);

/**
 * erf(x) to about 1e-15: the everywhere-positive Maclaurin series
 * erf(x) = 2/sqrt(pi) e^(-x^2) sum 2^n x^(2n+1) / (1 x 3 x ... x (2n+1)) for |x| < 3, and
 * 1 - erfc(x) from its continued fraction beyond (where the series would need many terms).
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return -erf(-x);
  if (x >= 3) return 1 - erfc(x);
  let term = x;
  let sum = x;
  const x2 = x * x;
  for (let n = 1; n < 200; n++) {
    term *= (2 * x2) / (2 * n + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return ((2 / SQRT_PI) * Math.exp(-x2) * sum);
}

/** erfc(x) = 1 - erf(x); from x = 2 on by its continued fraction (modified Lentz), so the tail keeps its relative precision. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < 2) return 1 - erf(x);
  // erfc(x) = e^(-x^2)/sqrt(pi) x 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = x + a / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / SQRT_PI / f;
}

/** Standard normal cumulative distribution N(x) = erfc(-x / sqrt 2) / 2. */
export function normCdf(x: number): number {
  if (x === Infinity) return 1;
  if (x === -Infinity) return 0;
  return 0.5 * erfc(-x / Math.SQRT2);
}

export interface QuoteInput {
  direction: OrderDirection;
  /** Current price S. */
  spot: number;
  /** Open price K. */
  strike: number;
  /** Annualised volatility. */
  sigma: number;
  secondsLeft: number;
}

/**
 * Probability that the order finishes in the money. With no time or no volatility left the
 * outcome is known: 1 or 0, and 0.5 on a tie (the stake comes back, which is half-way between).
 */
export function inTheMoneyProbability({ direction, spot, strike, sigma, secondsLeft }: QuoteInput): number {
  if (!(spot > 0) || !(strike > 0)) throw new RangeError('prices must be positive');
  const t = Math.max(0, secondsLeft) / SECONDS_PER_YEAR;
  const sd = Math.max(0, sigma) * Math.sqrt(t);
  if (sd < 1e-12) {
    if (spot === strike) return 0.5;
    return (direction === 'up') === spot > strike ? 1 : 0;
  }
  const d2 = (Math.log(spot / strike) - (sigma * sigma * t) / 2) / sd;
  return direction === 'up' ? normCdf(d2) : normCdf(-d2);
}

/** Probability is carried to 9 decimals in the integer maths (floored, so rounding favours no one's pocket upward). */
const P_SCALE = 1_000_000_000n;
const BP = 10_000n;

/**
 * The early-close value in minor units: stake x (1 + payout) x P x (1 - margin), rounded toward
 * zero. Never more than stake x (1 + payout).
 */
export function earlyCloseValue(stakeMinor: number, payoutRateBp: number, input: QuoteInput): number {
  if (!Number.isSafeInteger(stakeMinor) || stakeMinor < 0) throw new RangeError('stake must be a non-negative integer');
  if (!Number.isSafeInteger(payoutRateBp) || payoutRateBp < 0) throw new RangeError('payout rate must be whole basis points');
  const p = inTheMoneyProbability(input);
  const pScaled = BigInt(Math.floor(Math.min(1, Math.max(0, p)) * Number(P_SCALE)));
  const keepBp = BigInt(Math.round((1 - EARLY_CLOSE_MARGIN) * 10_000));
  const value = (BigInt(stakeMinor) * (BP + BigInt(payoutRateBp)) * pScaled * keepBp) / (BP * P_SCALE * BP);
  return Number(value);
}

/** stake x (1 + payout) rounded toward zero: what a win credits. */
export function winPayout(stakeMinor: number, payoutRateBp: number): number {
  return Number((BigInt(stakeMinor) * (BP + BigInt(payoutRateBp))) / BP);
}

/** Payout rate as a fraction (0.82) to whole basis points (8200). */
export function toBasisPoints(rate: number): number {
  return Math.round(rate * 10_000);
}
