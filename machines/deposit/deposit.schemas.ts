/**
 * The deposit amount rules (spec section 5, Deposit): required (deposit.amount_required), a
 * number greater than 0 (deposit.amount_invalid), at most the currency's decimals
 * (wallet.amount_too_precise: the ledger refuses finer amounts, it never rounds them), within
 * the method's min and max ("Amount too low" / "Amount too high" with the bound). Messages
 * are locale keys; the view fills {min}, {max} and {decimals}.
 */
import * as v from 'valibot';
import { amountSchema, type AmountLimits, type AmountMessages } from '../payment-methods/amounts';

export const DEPOSIT_AMOUNT_MESSAGES: AmountMessages = {
  required: 'deposit.amount_required',
  invalid: 'deposit.amount_invalid',
  too_precise: 'wallet.amount_too_precise',
  too_low: 'deposit.amount_too_low',
  too_high: 'deposit.amount_too_high',
  // Deposits are not limited by a balance; listed for completeness of the map.
  insufficient: 'deposit.amount_invalid',
};

/** The amount step's form: { amount } as typed. */
export function depositAmountFormSchema(limits: AmountLimits) {
  return v.object({ amount: amountSchema({ ...limits, available: undefined }, DEPOSIT_AMOUNT_MESSAGES) });
}

export type DepositAmountValues = { amount: string };
