/**
 * Small pieces of the transaction history: access to the long-lived 'transactions' actor, the
 * status badge (spec section 4: the label by the approval_status display rule, the colour by
 * the payment status badge rule for deposits and withdrawals), the type label, and copying a
 * value with a toast ("Copied to clipboard" / "Copy error").
 */
import { useChild } from '../../app/runtime';
import { InfoChip } from '../../components';
import { useT } from '../../i18n';
import type { Transaction, TransactionType } from '../../../contract/payments';
import { approvalDisplay, paymentBadgeKind } from '../../../machines/transactions/transactions.machine';

export function useTransactionsActor() {
  const ref = useChild('transactions');
  if (!ref) throw new Error('transactions actor missing');
  return ref;
}

/** pending / completed / failed, or the stored status as is (expired, cancelled). */
export function StatusBadge({ transaction, rule = 'payment' }: { transaction: Pick<Transaction, 'approval_status' | 'transaction_type'>; rule?: 'payment' | 'approval' }) {
  const t = useT();
  const display = approvalDisplay(transaction.approval_status);
  const kind = rule === 'payment' ? paymentBadgeKind(transaction.transaction_type, display.label) : display.kind;
  return (
    <InfoChip kind={kind} compact className="tx-status">
      {t(`transactions.status_${display.label}`)}
    </InfoChip>
  );
}

export function useTypeLabel() {
  const t = useT();
  return (type: TransactionType) => (type === 'deposit' ? t('transactions.type_deposit') : t('transactions.type_withdrawal'));
}

