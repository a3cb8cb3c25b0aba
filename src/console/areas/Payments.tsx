/**
 * Deposits and withdrawals: filter by type, status, user and late payments; approve (a large
 * withdrawal waits for a second finance operator) or reject with a reason; CSV export.
 */
import { useCallback } from 'react';
import { Link } from 'wouter';
import type { ConsolePayment } from '../../../contract/console';
import { Button, DateTime, InfoChip } from '../../components';
import { useT } from '../../i18n';
import { ActionDialog, useAfterAction } from '../parts/ActionDialog';
import { Amount } from '../parts/Amount';
import { DataTable, filtersFromUrl, SelectFilter, TextFilter, type Column } from '../parts/DataTable';
import { Status } from '../parts/Status';
import { useAction, useCan, useTable } from '../runtime';

const OPEN = new Set(['pending', 'processing']);

export function Payments() {
  const t = useT();
  const can = useCan();
  const table = useTable({ resource: 'payments', filters: filtersFromUrl(['type', 'status', 'user_id', 'late']) });
  const action = useAction();
  useAfterAction(
    action,
    useCallback(() => table.send({ type: 'table.refreshRequested' }), [table]),
  );
  const label = (p: ConsolePayment) => `${p.type === 'withdrawal' ? t('console.payments.withdrawal') : t('console.payments.deposit')} #${p.id}`;
  const columns: Column<ConsolePayment>[] = [
    { key: 'id', label: t('console.payments.id'), numeric: true, sortable: true, render: (p) => p.id },
    { key: 'type', label: t('console.payments.type'), render: (p) => (p.type === 'withdrawal' ? t('console.payments.withdrawal') : t('console.payments.deposit')) },
    { key: 'user_id', label: t('console.payments.user'), render: (p) => <Link href={`/users/${p.user_id}`}>{`#${p.user_id}`}</Link> },
    { key: 'method', label: t('console.payments.method'), render: (p) => p.method },
    { key: 'amount_minor', label: t('console.payments.amount'), numeric: true, sortable: true, render: (p) => <Amount minor={p.amount_minor} currency={p.currency} /> },
    { key: 'requisites', label: t('console.payments.requisites'), render: (p) => <span className="console-break">{p.requisites ?? t('console.none')}</span> },
    {
      key: 'status',
      label: t('console.payments.status'),
      render: (p) => (
        <span className="console-row">
          <Status value={p.status} />
          {p.late_payment ? (
            <InfoChip kind="warning" compact>
              {t('console.payments.late_badge')}
            </InfoChip>
          ) : null}
          {p.needs_second_approval && OPEN.has(p.status) ? (
            <InfoChip kind="info" compact>
              {t('console.payments.four_eyes')}
            </InfoChip>
          ) : null}
        </span>
      ),
    },
    { key: 'created_at_ms', label: t('console.payments.created'), sortable: true, render: (p) => <DateTime value={p.created_at_ms} /> },
    {
      key: 'actions',
      label: t('console.table.actions'),
      render: (p) =>
        can('payments.decide') && OPEN.has(p.status) ? (
          <span className="console-row">
            <Button size="sm" aria-label={`${t('console.payments.approve')} ${label(p)}`} onClick={() => action.send({ type: 'action.started', action: 'payment.approve', target: String(p.id), reasonRequired: false })}>
              {t('console.payments.approve')}
            </Button>
            <Button
              size="sm"
              variant="danger"
              aria-label={`${t('console.payments.reject')} ${label(p)}`}
              onClick={() => action.send({ type: 'action.started', action: 'payment.reject', target: String(p.id), reasonRequired: true })}
            >
              {t('console.payments.reject')}
            </Button>
          </span>
        ) : null,
    },
  ];
  return (
    <section className="console-area">
      <DataTable
        actor={table}
        caption={t('console.payments.title')}
        headingLevel={1}
        columns={columns}
        rowKey={(p) => p.id}
        filters={
          <>
            <SelectFilter
              actor={table}
              name="type"
              label={t('console.payments.type')}
              options={[
                { value: '', label: t('console.statuses.all') },
                { value: 'deposit', label: t('console.payments.deposit') },
                { value: 'withdrawal', label: t('console.payments.withdrawal') },
              ]}
            />
            <SelectFilter
              actor={table}
              name="status"
              label={t('console.payments.status')}
              options={[{ value: '', label: t('console.statuses.all') }, ...(['pending', 'processing', 'approved', 'failed', 'expired', 'cancelled'] as const).map((s) => ({ value: s, label: t(`console.statuses.${s}`) }))]}
            />
            <TextFilter actor={table} name="user_id" label={t('console.payments.user_id')} />
            <SelectFilter
              actor={table}
              name="late"
              label={t('console.payments.late')}
              options={[
                { value: '', label: t('console.no') },
                { value: '1', label: t('console.yes') },
              ]}
            />
          </>
        }
      />
      <ActionDialog actor={action} />
    </section>
  );
}
