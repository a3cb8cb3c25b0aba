/**
 * Small pieces of the transaction history: access to the long-lived 'transactions' actor, the
 * status badge (spec section 4: the label by the approval_status display rule, the colour by
 * the payment status badge rule for deposits and withdrawals), the type label, and copying a
 * value with a toast ("Copied to clipboard" / "Copy error").
 */
import { useChild } from '../../shared/runtime';
import { InfoChip, type IconName } from '../../components';
import { useT } from '../../i18n';
import type { Transaction, TransactionType } from '../../../contract/payments';
import { approvalDisplay, paymentBadgeKind } from '../../../machines/transactions/transactions.machine';

export function useTransactionsActor() {
  const ref = useChild('transactions');
  if (!ref) throw new Error('transactions actor missing');
  return ref;
}

/** The icon of a displayed status: a clock while it waits, so a pending payment never reads as an error. */
const STATUS_ICON: Record<string, IconName> = { pending: 'clock', completed: 'check', failed: 'error' };

/**
 * pending / completed / failed, or the stored status as is (expired, cancelled). The colour is
 * the spec's badge kind (pending is a warning); the icon follows the status itself and the
 * accessible text is just the status (no "Warning:" prefix: the label says it all).
 */
export function StatusBadge({ transaction, rule = 'payment' }: { transaction: Pick<Transaction, 'approval_status' | 'transaction_type'>; rule?: 'payment' | 'approval' }) {
  const display = approvalDisplay(transaction.approval_status);
  const kind = rule === 'payment' ? paymentBadgeKind(transaction.transaction_type, display.label) : display.kind;
  return (
    <InfoChip kind={kind} compact inline prefix={false} icon={STATUS_ICON[display.label]} className="tx-status" status={display.label}>
      {`transactions.status_${display.label}`}
    </InfoChip>
  );
}

export function useTypeLabel() {
  const t = useT();
  return (type: TransactionType) => (type === 'deposit' ? t('transactions.type_deposit') : t('transactions.type_withdrawal'));
}

