/**
 * The withdrawal form's rules (spec section 5, Withdrawal): amount required and a number
 * greater than 0 (validation.amount_number), at most the currency's decimals
 * (wallet.amount_too_precise), within the method's min and max (withdraw.amount_too_low /
 * withdraw.amount_too_high with the bound), at most the real balance of the currency
 * (withdraw.insufficient_balance); requisites required, 3 to 256 characters after trimming
 * (validation.requisites_min_length / validation.requisites_max_length), as the server checks
 * them. Messages are locale keys; the view fills {min}, {max}, {decimals} and {balance}.
 */
import * as v from 'valibot';
import { REQUISITES_MAX_LENGTH, REQUISITES_MIN_LENGTH } from '../../contract/payments';
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

/** The details step's form: { amount, requisites } as typed. */
export function withdrawFormSchema(limits: AmountLimits) {
  return v.object({ amount: amountSchema(limits, WITHDRAW_AMOUNT_MESSAGES), requisites: RequisitesSchema });
}

export type WithdrawValues = { amount: string; requisites: string };

/** The locale key of the requisites' problem, or null. */
export function requisitesProblem(requisites: string): string | null {
  const parsed = v.safeParse(RequisitesSchema, requisites);
  return parsed.success ? null : parsed.issues[0].message;
}
