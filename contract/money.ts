/**
 * Money at the edges. Inside the server every amount is an integer count of minor units
 * (cents for fiat, 1e-8 for crypto), held in a JS number that must stay a safe integer.
 *
 * The one rounding rule: an amount that arrives from outside may carry at most the currency's
 * decimals (anything finer is rejected, never rounded); an amount the platform computes
 * (payouts, early-close quotes, conversions) is rounded toward zero to the minor unit, so
 * rounding never creates money.
 */

export const MAX_MINOR = Number.MAX_SAFE_INTEGER;

/** Parse a decimal amount (number or string) to minor units; null when it has too many decimals or is not finite. */
export function toMinor(amount: number | string, decimals: number): number | null {
  let text: string;
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount) || Math.abs(amount) >= 1e15) return null;
    // One digit more than the currency has, so binary noise (0.1 + 0.2) disappears but a real
    // extra decimal (1.005 for a 2-decimal currency) is still seen and rejected.
    text = amount.toFixed(decimals + 1);
  } else {
    text = amount.trim();
  }
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const [, sign, whole, frac = ''] = m;
  const extra = frac.slice(decimals);
  if (/[1-9]/.test(extra)) return null;
  const digits = whole + frac.slice(0, decimals).padEnd(decimals, '0');
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) return null;
  return sign === '-' ? -value : value;
}

/** Minor units to a JS number for the wire (exact for every safe integer divided by 10^decimals in display). */
export function fromMinor(minor: number, decimals: number): number {
  return Number(formatMinor(minor, decimals));
}

/** Minor units to a fixed decimal string, exact (no float arithmetic). */
export function formatMinor(minor: number, decimals: number): string {
  const negative = minor < 0;
  const digits = Math.abs(minor).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const frac = decimals > 0 ? '.' + digits.slice(digits.length - decimals) : '';
  return (negative ? '-' : '') + whole + frac;
}

/** a * num / den rounded toward zero, exact for the magnitudes the ledger holds. */
export function mulDivFloor(a: number, num: number, den: number): number {
  const r = (BigInt(a) * BigInt(num)) / BigInt(den);
  const n = Number(r);
  if (!Number.isSafeInteger(n)) throw new RangeError('amount out of range');
  return n;
}
