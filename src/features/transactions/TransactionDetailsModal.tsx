/**
 * One transaction in detail (spec section 2, Transaction details modal): basic info (id, type,
 * status, method and processing time in the reader's language, a withdrawal's destination with
 * a card number masked by the server), amounts (amount and final amount with 2 decimals, the
 * payment currency's amount, the exchange rate with 6 decimals when the payment currency
 * differs), balances before and after, dates (DD.MM.YYYY HH:mm:ss), crypto info only when a
 * wallet address, network or hash exists, and for the payment-link integration the payment link with a copy action ("Copied to clipboard",
 * "Copy error" on failure). Opened from a history row with `{ transactionId, transaction }`;
 * it shows the row as the history actor has it now, so a status push updates it while open.
 */
import { SandboxBadge } from '../../shared/SandboxBadge';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { CARD_NUMBER_MASK, type Transaction } from '../../../contract/payments';
import { Button, DateTime, EmptyState, Icon, Modal, Money } from '../../components';
import { useFormat, useT } from '../../i18n';
import type { ModalComponentProps } from '../../shared/modals';
import { useCopy } from '../../shared/hooks';
import { StatusBadge, useTransactionsActor, useTypeLabel } from './parts';
import './transactions.css';

export interface TransactionDetailsData {
  transactionId: number;
  transaction?: Transaction;
}

function readData(data: unknown): TransactionDetailsData | null {
  if (typeof data !== 'object' || data === null) return null;
  const id: unknown = Reflect.get(data, 'transactionId');
  if (typeof id !== 'number') return null;
  const transaction: unknown = Reflect.get(data, 'transaction');
  return { transactionId: id, transaction: typeof transaction === 'object' && transaction !== null ? (transaction as Transaction) : undefined };
}

function Row({ label, children, copyValue }: { label: string; children: ReactNode; copyValue?: string | null }) {
  const t = useT();
  const copy = useCopy();
  return (
    <div className="tx-detail-row">
      <dt>{label}</dt>
      <dd>
        <span className="tx-detail-value">{children}</span>
        {copyValue ? (
          <Button variant="ghost" size="sm" icon="copy" aria-label={t('transactions.copy_label', { label })} onClick={() => void copy(copyValue)} />
        ) : null}
      </dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="tx-detail-section">
      <h3 className="tx-detail-title">{title}</h3>
      <dl className="tx-detail-list">{children}</dl>
    </section>
  );
}

const dash = '—';

export function TransactionDetailsModal({ data, onClose }: ModalComponentProps) {
  const t = useT();
  const format = useFormat();
  const typeLabel = useTypeLabel();
  const actor = useTransactionsActor();
  const request = readData(data);
  const latest = useSelector(actor, (s) => (request ? s.context.transactions.find((row) => row.id === request.transactionId) : undefined));
  const tx = latest ?? request?.transaction ?? null;

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={tx ? t('transactions.details_title', { id: tx.id }) : t('transactions.details')} size="md">
      {!tx ? (
        <EmptyState compact icon="warning" title={t('transactions.details_missing')} />
      ) : (
        <div className="stack tx-details">
          <Section title={t('transactions.section_basic')}>
            <Row label={t('transactions.field_id')} copyValue={String(tx.id)}>
              <span className="tabular">#{tx.id}</span>
            </Row>
            <Row label={t('transactions.field_type')}>{typeLabel(tx.transaction_type)}</Row>
            <Row label={t('transactions.field_status')}>
              <StatusBadge transaction={tx} rule="approval" />
              {tx.sandbox ? <SandboxBadge /> : null}
            </Row>
            <Row label={t('transactions.field_method')}>{t(tx.method)}</Row>
            <Row label={t('transactions.field_account')}>{t('transactions.account_real')}</Row>
            {tx.payment_details?.requisites ? (
              // A card number comes masked ("•••• 1111"): nothing to copy then.
              <Row
                label={t('transactions.field_requisites')}
                copyValue={tx.payment_details.requisites.startsWith(CARD_NUMBER_MASK) ? null : tx.payment_details.requisites}
              >
                <span className="tx-mono">{tx.payment_details.requisites}</span>
              </Row>
            ) : null}
            {tx.transaction_type === 'withdrawal' && tx.estimated_processing_time ? (
              <Row label={t('transactions.field_processing_time')}>{t(tx.estimated_processing_time)}</Row>
            ) : null}
            {tx.error_message ? <Row label={t('transactions.field_error')}>{tx.error_message}</Row> : null}
          </Section>

          <Section title={t('transactions.section_amounts')}>
            <Row label={t('transactions.field_amount')}>
              <Money amount={tx.amount} currency={tx.currency_code} />
            </Row>
            <Row label={t('transactions.field_final_amount')}>
              <Money amount={tx.final_amount} currency={tx.currency_code} />
            </Row>
            <Row label={t('transactions.field_payment_amount')}>
              <Money amount={tx.amount_payment_currency} currency={tx.payment_currency} code />
            </Row>
            {tx.payment_currency !== tx.currency_code ? (
              <Row label={t('transactions.field_exchange_rate')}>
                <span className="tabular">
                  1 {tx.currency_code} = {format.number(tx.exchange_rate, 6)} {tx.payment_currency}
                </span>
              </Row>
            ) : null}
          </Section>

          <Section title={t('transactions.section_balances')}>
            <Row label={t('transactions.field_balance_before')}>
              {tx.balance_before === null ? dash : <Money amount={tx.balance_before} currency={tx.currency_code} />}
            </Row>
            <Row label={t('transactions.field_balance_after')}>
              {tx.balance_after === null ? dash : <Money amount={tx.balance_after} currency={tx.currency_code} />}
            </Row>
          </Section>

          <Section title={t('transactions.section_dates')}>
            <Row label={t('transactions.field_created')}>
              <DateTime value={tx.created_at} withSeconds className="tabular" />
            </Row>
            <Row label={t('transactions.field_updated')}>
              <DateTime value={tx.updated_at} withSeconds className="tabular" />
            </Row>
            {/* The payment window matters only while the payment is awaited: a completed, failed or cancelled one shows no "Expires". */}
            {tx.expired_at !== null && tx.approval_status === 'pending' ? (
              <Row label={t('transactions.field_expires')}>
                <DateTime value={tx.expired_at} withSeconds className="tabular" />
              </Row>
            ) : null}
          </Section>

          {tx.crypto_wallet_address || tx.crypto_network || tx.crypto_transaction_hash ? (
            <Section title={t('transactions.section_crypto')}>
              {tx.crypto_wallet_address ? (
                <Row label={t('transactions.field_wallet_address')} copyValue={tx.crypto_wallet_address}>
                  <span className="tx-mono">{tx.crypto_wallet_address}</span>
                </Row>
              ) : null}
              {tx.crypto_network ? <Row label={t('transactions.field_network')}>{tx.crypto_network}</Row> : null}
              {tx.crypto_transaction_hash ? (
                <Row label={t('transactions.field_tx_hash')} copyValue={tx.crypto_transaction_hash}>
                  <span className="tx-mono">{tx.crypto_transaction_hash}</span>
                </Row>
              ) : null}
            </Section>
          ) : null}

          {tx.integration_type === 'oxapay_link' && tx.payment_url ? (
            <Section title={t('transactions.section_payment_link')}>
              <Row label={t('transactions.field_payment_link')} copyValue={tx.payment_url}>
                <a className="tx-link tx-mono" href={tx.payment_url} target="_blank" rel="noopener noreferrer">
                  {tx.payment_url}
                  <Icon name="external" size={14} />
                  <span className="visually-hidden"> ({t('transactions.opens_new_tab')})</span>
                </a>
              </Row>
            </Section>
          ) : null}
        </div>
      )}
    </Modal>
  );
}
