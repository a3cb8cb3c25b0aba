/**
 * The transaction history shown at /profile#transactions (spec sections 2-4, 7-9): filters
 * (type, status, account, date range), the rows newest first (date DD.MM.YYYY HH:mm, type,
 * method, amount with 2 decimals, status badge), pagination with a page size of 10/20/50/100,
 * a skeleton while loading, "Transactions not found" with what to do next, "Failed to get
 * transactions" with Retry, and the CSV export of the filtered history. A row opens the
 * details modal. The long-lived 'transactions' actor does the work: this view sends it events
 * (`transactions.opened` on mount, filter/page/size changes, Retry, export) and reads its state;
 * status pushes refresh the list while it is shown. No required props: the profile page places it.
 */
import { SandboxBadge } from '../../shared/SandboxBadge';
import { useEffect, useId, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { TRANSACTION_PAGE_SIZES, type Transaction } from '../../../contract/payments';
import { DEFAULT_FILTERS, type TransactionFilters } from '../../../machines/transactions/transactions.machine';
import { Button, DateTime, EmptyState, Icon, Money, Pagination, DateField, SelectField, SkeletonList, Spinner } from '../../components';
import { useT } from '../../i18n';
import { useModalControls } from '../../shared/hooks';
import { MODAL_IDS } from '../../shared/modals';
import { StatusBadge, useTransactionsActor, useTypeLabel } from './parts';
import './transactions.css';

export const TRANSACTIONS_ANCHOR = 'transactions';

function hasFilters(filters: TransactionFilters): boolean {
  return (Object.keys(DEFAULT_FILTERS) as Array<keyof TransactionFilters>).some((key) => filters[key] !== DEFAULT_FILTERS[key]);
}

/**
 * Inside the profile page (the default) the page's own section gives the #transactions anchor,
 * the heading and the scrolling; `standalone` adds them here for use anywhere else.
 */
export function TransactionsSection({ standalone = false }: { standalone?: boolean } = {}) {
  const t = useT();
  const actor = useTransactionsActor();
  const headingId = useId();
  const exporting = useSelector(actor, (s) => s.matches({ export: 'exporting' }));
  const refreshing = useSelector(actor, (s) => s.matches({ list: 'refreshing' }));

  useEffect(() => {
    actor.send({ type: 'transactions.opened' });
    if (standalone && window.location.hash === `#${TRANSACTIONS_ANCHOR}`) {
      document.getElementById(TRANSACTIONS_ANCHOR)?.scrollIntoView({ block: 'start' });
    }
  }, [actor, standalone]);

  const toolbar = (
    <div className="cluster tx-toolbar">
      {refreshing ? (
        <span className="tx-updating text-sm text-muted" role="status">
          <Spinner decorative size={14} />
          {t('transactions.updating')}
        </span>
      ) : null}
      <Button
        variant="secondary"
        size="sm"
        icon="file"
        loading={exporting}
        loadingLabel={t('transactions.exporting')}
        onClick={() => actor.send({ type: 'transactions.exportRequested' })}
      >
        {t('transactions.export_csv')}
      </Button>
    </div>
  );

  return (
    <section
      id={standalone ? TRANSACTIONS_ANCHOR : undefined}
      className="tx-section stack"
      aria-labelledby={standalone ? headingId : undefined}
      aria-label={standalone ? undefined : t('transactions.title')}
    >
      {standalone ? (
        <h2 id={headingId} className="tx-title">
          {t('transactions.title')}
        </h2>
      ) : null}
      <Filters toolbar={toolbar} />
      <TransactionList />
    </section>
  );
}

function Filters({ toolbar }: { toolbar: ReactNode }) {
  const t = useT();
  const actor = useTransactionsActor();
  const filters = useSelector(actor, (s) => s.context.filters);
  const change = (patch: Partial<TransactionFilters>) => actor.send({ type: 'transactions.filtersChanged', filters: patch });
  return (
    <form className="tx-filters" aria-label={t('transactions.filters')} onSubmit={(e) => e.preventDefault()}>
      <div className="tx-filters-main">
        <SelectField
          label={t('transactions.filter_type')}
          value={filters.type}
          onChange={(e) => change({ type: e.currentTarget.value as TransactionFilters['type'] })}
          options={[
            { value: 'all', label: t('transactions.all_types') },
            { value: 'deposit', label: t('transactions.type_deposits') },
            { value: 'withdrawal', label: t('transactions.type_withdrawals') },
          ]}
        />
        <SelectField
          label={t('transactions.filter_status')}
          value={filters.status}
          onChange={(e) => change({ status: e.currentTarget.value as TransactionFilters['status'] })}
          options={[
            { value: 'all', label: t('transactions.all_statuses') },
            { value: 'pending', label: t('transactions.status_pending') },
            { value: 'completed', label: t('transactions.status_completed') },
            { value: 'failed', label: t('transactions.status_failed') },
          ]}
        />
        <SelectField
          label={t('transactions.filter_account')}
          value={filters.account}
          onChange={(e) => change({ account: e.currentTarget.value as TransactionFilters['account'] })}
          options={[
            { value: 'all', label: t('transactions.all_accounts') },
            { value: 'real', label: t('transactions.account_real') },
            { value: 'demo', label: t('transactions.account_demo') },
          ]}
        />
        <DateField
          label={t('transactions.date_from')}
          value={filters.dateFrom ?? ''}
          max={filters.dateTo ?? undefined}
          onChange={(iso) => change({ dateFrom: iso || null })}
        />
        <DateField
          label={t('transactions.date_to')}
          value={filters.dateTo ?? ''}
          min={filters.dateFrom ?? undefined}
          onChange={(iso) => change({ dateTo: iso || null })}
        />
      </div>
      <div className="tx-filters-actions">
        <Button variant="ghost" size="sm" icon="close" disabled={!hasFilters(filters)} onClick={() => actor.send({ type: 'transactions.filtersReset' })}>
          {t('transactions.reset_filters')}
        </Button>
        {toolbar}
      </div>
    </form>
  );
}

function TransactionList() {
  const t = useT();
  const actor = useTransactionsActor();
  const modals = useModalControls();
  const state = useSelector(actor, (s) =>
    s.matches({ list: 'loading' }) || s.matches({ list: 'idle' }) ? 'loading' : s.matches({ list: 'failed' }) ? 'failed' : 'shown',
  );
  const rows = useSelector(actor, (s) => s.context.transactions);
  const error = useSelector(actor, (s) => s.context.error);
  const filters = useSelector(actor, (s) => s.context.filters);
  const limit = useSelector(actor, (s) => s.context.limit);

  if (state === 'loading') return <SkeletonList rows={Math.min(limit, 6)} rowHeight={52} label={t('transactions.loading')} />;
  if (state === 'failed') {
    return (
      <EmptyState
        icon="error"
        title={error ?? t('transactions.load_failed')}
        hint={t('transactions.load_failed_hint')}
        action={
          <Button variant="primary" icon="refresh" onClick={() => actor.send({ type: 'transactions.retryRequested' })}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  if (rows.length === 0) {
    const filtered = hasFilters(filters);
    return (
      <EmptyState
        icon="history"
        title={t('transactions.not_found')}
        hint={filtered ? t('transactions.not_found_filtered_hint') : t('transactions.not_found_hint')}
        action={
          filtered ? (
            <Button icon="close" onClick={() => actor.send({ type: 'transactions.filtersReset' })}>
              {t('transactions.reset_filters')}
            </Button>
          ) : (
            <Button variant="primary" icon="deposit" onClick={() => modals.open(MODAL_IDS.deposit)}>
              {t('transactions.make_deposit')}
            </Button>
          )
        }
      />
    );
  }
  return (
    <div className="stack">
      <div className="tx-table" role="table" aria-label={t('transactions.title')} aria-rowcount={rows.length + 1}>
        <div className="tx-row tx-row-head" role="row">
          <span role="columnheader">{t('transactions.col_date')}</span>
          <span role="columnheader">{t('transactions.col_type')}</span>
          <span role="columnheader">{t('transactions.col_method')}</span>
          <span role="columnheader" className="tx-amount">
            {t('transactions.col_amount')}
          </span>
          <span role="columnheader">{t('transactions.col_status')}</span>
          <span role="columnheader">
            <span className="visually-hidden">{t('transactions.col_details')}</span>
          </span>
        </div>
        {rows.map((row) => (
          <Row key={row.id} row={row} onOpen={() => modals.open(MODAL_IDS.transactionDetails, { transactionId: row.id, transaction: row })} />
        ))}
      </div>
      <ListFooter />
    </div>
  );
}

function Row({ row, onOpen }: { row: Transaction; onOpen: () => void }) {
  const t = useT();
  const typeLabel = useTypeLabel();
  const sign = row.transaction_type === 'withdrawal' ? -1 : 1;
  return (
    <div className="tx-row" role="row" data-type={row.transaction_type} onClick={onOpen}>
      <span role="cell" className="tx-date tabular">
        <DateTime value={row.created_at} />
      </span>
      <span role="cell" className="tx-type">
        <Icon name={row.transaction_type === 'deposit' ? 'deposit' : 'withdraw'} size={16} />
        {typeLabel(row.transaction_type)}
      </span>
      <span role="cell" className="tx-method truncate" title={t(row.method)}>
        {t(row.method)}
      </span>
      <span role="cell" className="tx-amount">
        <Money amount={sign * row.amount} currency={row.currency_code} signed />
      </span>
      <span role="cell" className="tx-status-cell">
        <StatusBadge transaction={row} />
        {row.sandbox ? <SandboxBadge /> : null}
      </span>
      <span role="cell" className="tx-open">
        <button
          type="button"
          className="tx-open-button"
          aria-label={t('transactions.open_details', { id: row.id })}
          onClick={(e) => {
            e.stopPropagation();
            onOpen();
          }}
        >
          <span className="tx-id tabular">#{row.id}</span>
          <Icon name="chevron" direction="right" size={16} />
        </button>
      </span>
    </div>
  );
}

function ListFooter() {
  const t = useT();
  const actor = useTransactionsActor();
  const pagination = useSelector(actor, (s) => s.context.pagination);
  const page = useSelector(actor, (s) => s.context.page);
  const limit = useSelector(actor, (s) => s.context.limit);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const total = pagination?.total_count ?? 0;
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  return (
    <div className="tx-footer">
      <SelectField
        label={t('transactions.page_size')}
        className="tx-page-size"
        value={String(limit)}
        onChange={(e) => actor.send({ type: 'transactions.limitChanged', limit: Number(e.currentTarget.value) })}
        options={TRANSACTION_PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
      />
      <span className="text-sm text-muted tabular" aria-live="polite">
        {t('transactions.range', { from, to, total })}
      </span>
      <Pagination page={page} totalPages={pagination?.total_pages ?? 1} disabled={busy} onChange={(next) => actor.send({ type: 'transactions.pageChanged', page: next })} />
    </div>
  );
}
