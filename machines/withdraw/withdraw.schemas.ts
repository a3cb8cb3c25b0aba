/**
 * The withdrawal form's rules (spec section 5, Withdrawal): amount required and a number
 * greater than 0 (validation.amount_number), at most the currency's decimals
 * (wallet.amount_too_precise), at least the method's min (withdraw.amount_too_low), and above
 * what may be taken the tighter bound named: the real balance of the currency when it is below
 * the method's max (withdraw.insufficient_balance), otherwise the max (withdraw.amount_too_high);
 * requisites required, 3 to 256 characters after trimming (validation.requisites_min_length /
 * validation.requisites_max_length), as the server checks them, and for a card method a card
 * number: 12 to 19 digits, spaces and hyphens allowed (withdraw.card_number_length), passing
 * the Luhn check (withdraw.card_number_invalid). Messages are locale keys; the view fills
 * {min}, {max}, {decimals} and {balance}.
 */
import * as v from 'valibot';
import { REQUISITES_MAX_LENGTH, REQUISITES_MIN_LENGTH, cardNumberProblem, isCardMethod, type PaymentMethod } from '../../contract/payments';
import { amountSchema, type AmountLimits, type AmountMessages } from '../payment-methods/amounts';

export const WITHDRAW_AMOUNT_MESSAGES: AmountMessages = {
  required: 'validation.amount_number',
  invalid: 'validation.amount_number',
  too_precise: 'wallet.amount_too_precise',
  too_low: 'withdraw.amount_too_low',
  too_high: 'withdraw.amount_too_high',
  insufficient: 'withdraw.insufficient_balance',
};

export const RequisitesSchema = v.pipe(
  v.string('validation.requisites_min_length'),
  v.trim(),
  v.minLength(REQUISITES_MIN_LENGTH, 'validation.requisites_min_length'),
  v.maxLength(REQUISITES_MAX_LENGTH, 'validation.requisites_max_length'),
);

/** A card method's requisites: a card number of 12 to 19 digits that passes the Luhn check. */
export const CardNumberSchema = v.pipe(
  v.string('withdraw.card_number_length'),
  v.trim(),
  v.maxLength(REQUISITES_MAX_LENGTH, 'withdraw.card_number_length'),
  v.check((text) => cardNumberProblem(text) !== 'length', 'withdraw.card_number_length'),
  v.check((text) => cardNumberProblem(text) !== 'checksum', 'withdraw.card_number_invalid'),
);

/** The requisites rules of a method: a card number for a card method, 3 to 256 characters otherwise. */
export function requisitesSchema(method: Pick<PaymentMethod, 'category'> | null) {
  return method && isCardMethod(method) ? CardNumberSchema : RequisitesSchema;
}

/** The details step's form: { amount, requisites } as typed. */
export function withdrawFormSchema(limits: AmountLimits, method: Pick<PaymentMethod, 'category'> | null) {
  return v.object({ amount: amountSchema(limits, WITHDRAW_AMOUNT_MESSAGES), requisites: requisitesSchema(method) });
}

export type WithdrawValues = { amount: string; requisites: string };

/** The locale key of the requisites' problem for this method, or null. */
export function requisitesProblem(requisites: string, method: Pick<PaymentMethod, 'category'> | null): string | null {
  const parsed = v.safeParse(requisitesSchema(method), requisites, { abortPipeEarly: true });
  return parsed.success ? null : parsed.issues[0].message;
}
