/**
 * The bet rules the order-placement machine owns (pure): what a click may place (`betProblem`,
 * the server's stake rules in locale keys), which reason the panel shows now (`shownProblem`),
 * the - / + steps and quick presets of the amount (per currency, in its own minor units, never
 * float arithmetic on money), the - / + steps and unit switch of the bet time, and the return a
 * win would pay. The machine applies them to the trader's intents; the panel only selects.
 */
import { findCurrency, type Currency } from '../../contract/currencies';
import { formatMinor, mulDivFloor, toMinor } from '../../contract/money';
import { maxBetMinor, minBetMinor, ORDER_MAX_EXPIRY_SECONDS, ORDER_MIN_EXPIRY_SECONDS, type TradingAccount } from '../../contract/orders';
import type { BalanceType } from '../../contract/user';
import { moneyParam, type MessageParams } from '../types';

export type ExpiryUnit = 'seconds' | 'minutes';

/** Why a click cannot place an order: a locale key, its parameters and the field it is about. */
export interface BetProblem {
  /** `risk`: the server refused the order for its pair's risk limit (docs/money.md); shown in the slot like the others. */
  field: 'session' | 'pair' | 'amount' | 'expiry' | 'risk';
  key: string;
  params?: MessageParams;
}

/** What the view knows at the moment of the click (from the session, pairs and balance actors). */
export interface TradeSetup {
  loggedIn: boolean;
  pair: { pairCode: string; pairHumanCode: string } | null;
  currency: string;
  balanceType: BalanceType;
  /** Balance of the chosen account, decimal in `currency`. */
  available: number;
}

/** The bet as the machine holds it. */
export interface Bet {
  amount: string;
  expiryValue: number;
  expiryUnit: ExpiryUnit;
}

/** RealBalance is traded on the RealAccount, DemoBalance on the DemoAccount. */
export function tradingAccountFor(balanceType: BalanceType): TradingAccount {
  return balanceType === 'RealBalance' ? 'RealAccount' : 'DemoAccount';
}

/** The bet time in seconds. */
export function expirySeconds(value: number, unit: ExpiryUnit): number {
  return unit === 'minutes' ? value * 60 : value;
}

/** "10,5" -> "10.5"; surrounding spaces dropped. Null when it is not a plain decimal. */
export function normalizeAmount(text: string): string | null {
  const trimmed = text.trim().replace(',', '.');
  return /^\d+(\.\d+)?$/.test(trimmed) ? trimmed : null;
}

/**
 * Why this bet cannot be placed, or null. The stake rules are the server's (contract/orders.ts:
 * more decimals than the currency has is refused, never rounded; min and max per currency),
 * plus the balance of the chosen account.
 */
export function betProblem(bet: Bet, setup: TradeSetup): BetProblem | null {
  if (!setup.loggedIn) return { field: 'session', key: 'trading.login_to_bet' };
  if (!setup.pair) return { field: 'pair', key: 'trading.no_pair_selected' };
  const amountProblem = stakeProblemKey(bet.amount, setup.currency, setup.available);
  if (amountProblem) return amountProblem;
  return expiryProblem(bet.expiryValue, bet.expiryUnit);
}

/** The bet-time part of betProblem (the view shows it as the trader types). */
export function expiryProblem(value: number, unit: ExpiryUnit): BetProblem | null {
  const seconds = expirySeconds(value, unit);
  if (!Number.isInteger(seconds) || seconds < ORDER_MIN_EXPIRY_SECONDS || seconds > ORDER_MAX_EXPIRY_SECONDS) {
    return { field: 'expiry', key: 'trading.expiry_range' };
  }
  return null;
}

/** The amount part of betProblem (the view shows it under the field as the trader types). */
export function stakeProblemKey(amount: string, currencyCode: string, available: number): BetProblem | null {
  const currency = findCurrency(currencyCode);
  if (!currency) return { field: 'amount', key: 'trading.unknown_currency' };
  if (amount.trim() === '') return { field: 'amount', key: 'trading.amount_required' };
  const normalized = normalizeAmount(amount);
  if (normalized === null) return { field: 'amount', key: 'trading.amount_invalid' };
  const minor = toMinor(normalized, currency.decimals);
  if (minor === null) return { field: 'amount', key: 'trading.amount_decimals', params: { decimals: currency.decimals, currency: currency.iso_code } };
  if (minor <= 0) return { field: 'amount', key: 'trading.amount_positive' };
  const min = minBetMinor(currency);
  const max = maxBetMinor(currency);
  if (minor < min) return { field: 'amount', key: 'trading.amount_min', params: { min: moneyParam(min / 10 ** currency.decimals, currency.iso_code) } };
  if (minor > max) return { field: 'amount', key: 'trading.amount_max', params: { max: moneyParam(max / 10 ** currency.decimals, currency.iso_code) } };
  const balance = toMinor(available, currency.decimals) ?? Math.floor(available * 10 ** currency.decimals);
  if (minor > balance) return { field: 'amount', key: 'trading.insufficient_balance' };
  return null;
}

/**
 * The reason the panel's slot shows: the refused click's reason (`problem`), else what the
 * panel would refuse now for the account it shows (an empty amount only once the trader has
 * left the field or clicked), else none.
 */
export function shownProblem(bet: Bet & { problem: BetProblem | null; touched: boolean }, currency: string, available: number): BetProblem | null {
  if (bet.problem) return bet.problem;
  const stake = stakeProblemKey(bet.amount, currency, available);
  if (stake && (bet.touched || stake.key !== 'trading.amount_required')) return stake;
  return expiryProblem(bet.expiryValue, bet.expiryUnit);
}

/** The bet-time field's reason: the refused click's, else the current bet time's. */
export function expiryFieldProblem(bet: Bet & { problem: BetProblem | null }): BetProblem | null {
  return bet.problem?.field === 'expiry' ? bet.problem : expiryProblem(bet.expiryValue, bet.expiryUnit);
}

/** What a win returns for this bet, or null when the amount would be refused (never a payout for a bet that cannot be placed). */
export function betReturn(bet: Bet, currency: string, available: number, payoutRate: number | null): { payout: number; profit: number } | null {
  if (payoutRate === null || stakeProblemKey(bet.amount, currency, available)) return null;
  return potentialReturn(bet.amount, currency, payoutRate);
}

// ---- steps and presets ---------------------------------------------------------------------

const MINUTES_MAX = ORDER_MAX_EXPIRY_SECONDS / 60;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The typed amount in minor units, or null when it is not a usable number. */
export function stakeMinor(text: string, currency: Currency): number | null {
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
  const current = stakeMinor(text, currency) ?? min;
  let step = magnitude(current);
  // Stepping down from 10 goes to 9, not 0.
  if (direction === -1 && current === step) step = Math.max(1, step / 10);
  // Whole steps: 12.34 + 10 = 22.34 would be odd; snap to the step grid instead.
  const snapped = direction === 1 ? Math.floor(current / step) * step + step : Math.ceil(current / step) * step - step;
  return amountText(clamp(snapped, min, max), currency);
}

/**
 * "Nice" quick amounts for a currency: 10, 25, 50, 100 of its USD-equivalent scale, the scale a
 * power of ten read from `perUsd` (units of the currency per 1 USD at the platform's live prices:
 * contract/currencies.ts usdRateFromPrices; the configured rate only where no pair has a price),
 * so the figures stay round in the account currency (e.g. 0.0001 .. 0.001 BTC near $94k).
 */
export function stakePresets(currencyCode: string, perUsd?: number): string[] {
  const currency = findCurrency(currencyCode);
  if (!currency) return [];
  const rate = perUsd !== undefined && perUsd > 0 && Number.isFinite(perUsd) ? perUsd : currency.rate;
  const scale = 10 ** Math.round(Math.log10(rate));
  const min = minBetMinor(currency);
  const max = maxBetMinor(currency);
  return [10, 25, 50, 100]
    .map((n) => toMinor(Number((n * scale).toPrecision(12)), currency.decimals))
    .filter((m): m is number => m !== null && m >= min && m <= max)
    .map((m) => amountText(m, currency));
}

/** The amount a currency starts with: its first preset (else its minimum bet). */
export function firstPreset(currencyCode: string, perUsd?: number): string {
  const presets = stakePresets(currencyCode, perUsd);
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
  const stake = stakeMinor(text, currency);
  if (stake === null || stake <= 0) return null;
  const payoutBp = Math.round(payoutRate * 10_000);
  const payout = mulDivFloor(stake, 10_000 + payoutBp, 10_000);
  const factor = 10 ** currency.decimals;
  return { payout: payout / factor, profit: (payout - stake) / factor };
}
