/**
 * Pure money helpers shared by the deposit and withdraw wizards and their forms: which methods
 * serve a currency in a direction (with their min/max converted into that currency with the
 * same `sumsInMinor` the server uses), reading a typed amount into minor units (the ledger's
 * rule: more decimals than the currency has is refused, never rounded), the quick amount
 * presets inside a method's limits, and the idempotency key of a money request.
 */
import * as v from 'valibot';
import type { Currency } from '../../contract/currencies';
import { toMinor } from '../../contract/money';
import { sumsInMinor, type PaymentMethod } from '../../contract/payments';

export type PaymentDirection = 'deposit' | 'withdrawal';

/** A method usable for one currency and direction, with its bounds in that currency's minor units. */
export interface MethodOption {
  method: PaymentMethod;
  min: number;
  max: number;
  currency: Currency;
}

/** Whether a method may be offered at all in a direction (the payment link never pays out). */
export function isMethodOffered(method: PaymentMethod, direction: PaymentDirection): boolean {
  if (!method.is_active) return false;
  if (direction === 'deposit') return method.deposit_enabled;
  return method.withdraw_enabled && method.integration_type !== 'oxapay_link';
}

/** The method's limits in an account currency, or null when it does not serve that currency/direction. */
export function methodOption(method: PaymentMethod, currency: string, direction: PaymentDirection): MethodOption | null {
  if (!isMethodOffered(method, direction)) return null;
  const sums = sumsInMinor(method, currency);
  if (!sums || sums.min > sums.max) return null;
  return { method, min: sums.min, max: sums.max, currency: sums.currency };
}

/** The methods serving `currency` in `direction`, in catalogue order. */
export function methodsFor(methods: readonly PaymentMethod[], currency: string, direction: PaymentDirection): MethodOption[] {
  const options: MethodOption[] = [];
  for (const method of methods) {
    const option = methodOption(method, currency, direction);
    if (option) options.push(option);
  }
  return options;
}

export type AmountProblem = 'required' | 'invalid' | 'too_precise' | 'too_low' | 'too_high' | 'insufficient';

export interface AmountLimits {
  /** Minor units of the currency. */
  min: number;
  max: number;
  decimals: number;
  /** The most that may be taken (the real balance, for withdrawals), in minor units. */
  available?: number;
}

/** The longest amount text accepted (15 digits keep every value a safe integer of minor units). */
export const AMOUNT_MAX_LENGTH = 24;

/** A typed amount as a plain decimal string: trimmed, a decimal comma read as a point. */
export function normaliseAmount(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, '');
  return trimmed.includes('.') ? trimmed : trimmed.replace(',', '.');
}

/** Minor units of a typed amount, or the first problem with it. */
export function readAmount(text: string, limits: AmountLimits): { minor: number } | { problem: AmountProblem } {
  const normal = normaliseAmount(text);
  if (normal === '') return { problem: 'required' };
  if (normal.length > AMOUNT_MAX_LENGTH || !/^\d{1,15}(\.\d+)?$/.test(normal)) return { problem: 'invalid' };
  if (Number(normal) <= 0) return { problem: 'invalid' };
  const minor = toMinor(normal, limits.decimals);
  if (minor === null) return { problem: 'too_precise' };
  if (minor <= 0) return { problem: 'invalid' };
  if (minor < limits.min) return { problem: 'too_low' };
  // Above what may be taken: name the tighter bound (the balance when it is below the method's max).
  const { available } = limits;
  if (available !== undefined && available < limits.max && minor > available) return { problem: 'insufficient' };
  if (minor > limits.max) return { problem: 'too_high' };
  return { minor };
}

export function amountProblem(text: string, limits: AmountLimits): AmountProblem | null {
  const read = readAmount(text, limits);
  return 'problem' in read ? read.problem : null;
}

/** The limits of a method option (plus what is available, for withdrawals). */
export function limitsOf(option: MethodOption, available?: number): AmountLimits {
  return { min: option.min, max: option.max, decimals: option.currency.decimals, available };
}

/**
 * Up to `count` one-click amounts inside [min, max], in minor units: the minimum itself when it
 * is not a round number, then round amounts (1 and 5 times a power of ten) above it.
 */
export function amountPresets(min: number, max: number, decimals: number, count = 5): number[] {
  if (min > max || max <= 0) return [];
  const unit = 10 ** decimals;
  const out: number[] = [];
  const start = Math.max(min, 1);
  const round: number[] = [];
  for (let power = 0; power <= 15 && round.length < count + 1; power++) {
    for (const factor of [1, 5]) {
      const value = factor * 10 ** power * unit;
      if (!Number.isSafeInteger(value)) break;
      if (value >= start && value <= max) round.push(value);
    }
  }
  if (!round.includes(start)) out.push(start);
  for (const value of round) {
    if (out.length >= count) break;
    out.push(value);
  }
  return out;
}

/** FNV-1a over a string, base 36: a short stable fingerprint (not a secret). */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/**
 * The client_request_id of a money request: the flow's random key plus a fingerprint of what
 * is asked. Sending the same request again (a retry after a timeout, a double submit) reuses
 * the id, so the server answers with the first payment instead of making a second one; a
 * different amount, method or currency is a different request. Fits `^[A-Za-z0-9_-]{8,64}$`.
 */
export function clientRequestId(kind: 'd' | 'w', flowKey: string, parts: readonly string[]): string {
  const safeKey = flowKey.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40).padEnd(8, '0');
  return `${kind}-${safeKey}-${fingerprint(parts.join('|'))}`;
}

/** Locale keys for each amount problem (a form shows them with {min}, {max}, {decimals}, {balance}). */
export type AmountMessages = Record<AmountProblem, string>;

/**
 * A valibot schema for an amount field with these limits: the first problem becomes the
 * field's message (a locale key). The forms use it through valiForm; the machines guard with
 * the same readAmount, so view and machine never disagree.
 */
export function amountSchema(limits: AmountLimits, messages: AmountMessages) {
  const check = (problem: AmountProblem) => v.check((text: string) => amountProblem(text, limits) !== problem, messages[problem]);
  return v.pipe(
    v.string(messages.required),
    check('required'),
    check('invalid'),
    check('too_precise'),
    check('too_low'),
    check('too_high'),
    check('insufficient'),
  );
}
