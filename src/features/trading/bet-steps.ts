/**
 * Pure helpers of the bet panel: the - / + steps and quick presets of the amount (per currency,
 * in its own minor units, never float arithmetic on money), the - / + steps and unit switch of
 * the bet time, and the potential return shown before the click.
 */
import { findCurrency, type Currency } from '../../../contract/currencies';
import { formatMinor, mulDivFloor, toMinor } from '../../../contract/money';
import { maxBetMinor, minBetMinor, ORDER_MAX_EXPIRY_SECONDS, ORDER_MIN_EXPIRY_SECONDS } from '../../../contract/orders';
import { normalizeAmount, type ExpiryUnit } from '../../../machines/order-placement/order-placement.machine';

const MINUTES_MAX = ORDER_MAX_EXPIRY_SECONDS / 60;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The typed amount in minor units, or null when it is not a usable number. */
export function amountMinor(text: string, currency: Currency): number | null {
  const normalized = normalizeAmount(text);
  return normalized === null ? null : toMinor(normalized, currency.decimals);
}

/** Minor units as the text the amount field shows ("10", "12.5", "0.0005"). */
export function amountText(minor: number, currency: Currency): string {
  const fixed = formatMinor(minor, currency.decimals);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** A power of ten in minor units at or below `minor` (the step size for that magnitude). */
function magnitude(minor: number): number {
  return 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, minor))));
}

/**
 * The amount one step up or down: 1, 2 ... 9, 10, 20 ... 90, 100, 200 ... in the currency's
 * whole units (finer for small crypto stakes), kept within the currency's min and max bet.
 */
export function stepAmount(text: string, currencyCode: string, direction: 1 | -1): string {
  const currency = findCurrency(currencyCode);
  if (!currency) return text;
  const min = minBetMinor(currency);
  const max = maxBetMinor(currency);
  const current = amountMinor(text, currency) ?? min;
  let step = magnitude(current);
  // Stepping down from 10 goes to 9, not 0.
  if (direction === -1 && current === step) step = Math.max(1, step / 10);
  // Whole steps: 12.34 + 10 = 22.34 would be odd; snap to the step grid instead.
  const snapped = direction === 1 ? Math.floor(current / step) * step + step : Math.ceil(current / step) * step - step;
  return amountText(clamp(snapped, min, max), currency);
}

/** "Nice" quick amounts for a currency: 10, 25, 50, 100 of its USD-equivalent scale. */
export function amountPresets(currencyCode: string): string[] {
  const currency = findCurrency(currencyCode);
  if (!currency) return [];
  const scale = 10 ** Math.round(Math.log10(currency.rate));
  const min = minBetMinor(currency);
  const max = maxBetMinor(currency);
  return [10, 25, 50, 100]
    .map((n) => toMinor(Number((n * scale).toPrecision(12)), currency.decimals))
    .filter((m): m is number => m !== null && m >= min && m <= max)
    .map((m) => amountText(m, currency));
}

/** The amount a currency starts with: its first preset (else its minimum bet). */
export function firstPreset(currencyCode: string): string {
  const presets = amountPresets(currencyCode);
  if (presets[0] !== undefined) return presets[0];
  const currency = findCurrency(currencyCode);
  return currency ? amountText(minBetMinor(currency), currency) : '10';
}

/** Decimals a preset is written with ("0.00025" -> 5), so its button shows no trailing zeros. */
export function presetDecimals(preset: string): number {
  return preset.split('.')[1]?.length ?? 0;
}

/** The bet time one step up or down: 5 s steps under a minute, then 15 s, 1 min; minutes 1, 5, 15. */
export function stepExpiry(value: number, unit: ExpiryUnit, direction: 1 | -1): number {
  if (unit === 'seconds') {
    const probe = direction === 1 ? value : value - 1;
    const step = probe < 60 ? 5 : probe < 300 ? 15 : 60;
    const next = direction === 1 ? Math.floor(value / step) * step + step : Math.ceil(value / step) * step - step;
    return clamp(next, ORDER_MIN_EXPIRY_SECONDS, ORDER_MAX_EXPIRY_SECONDS);
  }
  const probe = direction === 1 ? value : value - 1;
  const step = probe < 15 ? 1 : probe < 60 ? 5 : 15;
  const next = direction === 1 ? Math.floor(value / step) * step + step : Math.ceil(value / step) * step - step;
  return clamp(next, 1, MINUTES_MAX);
}

/** The same bet time in the other unit (rounded to whole minutes, at least one). */
export function convertExpiry(value: number, from: ExpiryUnit, to: ExpiryUnit): number {
  if (from === to) return value;
  if (to === 'minutes') return clamp(Math.round(value / 60), 1, MINUTES_MAX);
  return clamp(value * 60, ORDER_MIN_EXPIRY_SECONDS, ORDER_MAX_EXPIRY_SECONDS);
}

/**
 * What a win would pay back and the profit in it, as the server computes it: stake x (1 +
 * payout) rounded toward zero in minor units, the payout rate in basis points. Null when the
 * amount is not a valid number.
 */
export function potentialReturn(text: string, currencyCode: string, payoutRate: number): { payout: number; profit: number } | null {
  const currency = findCurrency(currencyCode);
  if (!currency) return null;
  const stake = amountMinor(text, currency);
  if (stake === null || stake <= 0) return null;
  const payoutBp = Math.round(payoutRate * 10_000);
  const payout = mulDivFloor(stake, 10_000 + payoutBp, 10_000);
  const factor = 10 ** currency.decimals;
  return { payout: payout / factor, profit: (payout - stake) / factor };
}
