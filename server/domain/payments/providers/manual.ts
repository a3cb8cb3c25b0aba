/**
 * Manual requisites: the payer is shown the platform's card or bank details, transfers the
 * money outside the platform, presses Confirm (pending -> processing), and an operator checks
 * the bank statement and approves or rejects with `npm run admin -- tx approve|reject <id>`.
 * Withdrawals through a manual method are paid out by the operator the same way.
 */
import { MANUAL_DEPOSIT_TTL_MS, type Requisit } from '../../../../contract/payments';
import type { PaymentMethodRow, PaymentTxRow } from '../wire';
import type { DepositFields, PaymentProvider, WithdrawalTerms } from './types';

export class ManualProvider implements PaymentProvider {
  readonly type = 'manual' as const;
  readonly depositTtlMs = MANUAL_DEPOSIT_TTL_MS;

  async createDeposit(_row: PaymentTxRow, method: PaymentMethodRow): Promise<DepositFields> {
    let requisit: Requisit = { card_number: null, cardholder_name: null };
    if (method.requisites) requisit = { ...requisit, ...(JSON.parse(method.requisites) as Requisit) };
    return { requisit };
  }

  async integrationData() {
    return null;
  }

  confirmByUser(): 'processing' {
    return 'processing';
  }

  createWithdrawal(method: PaymentMethodRow): WithdrawalTerms {
    return { estimated_processing_time: method.estimated_processing_time };
  }
}
