/**
 * The four-eyes queue: requests waiting for a second operator (large withdrawals, risk-limit
 * raises, balance adjustments, enabling a pair). The requester sees "you requested this:
 * another operator must approve"; the server refuses their approval anyway.
 */
import { useCallback } from 'react';
import { APPROVAL_KINDS, APPROVAL_PERMISSION, type Approval } from '../../../contract/console';
import { Button, DateTime, InfoChip } from '../../components';
import { useT } from '../../i18n';
import { ActionDialog, useAfterAction } from '../parts/ActionDialog';
import { DataTable, filtersFromUrl, SelectFilter, type Column } from '../parts/DataTable';
import { Status } from '../parts/Status';
import { useAction, useCan, useOperator, useTable } from '../runtime';

function Payload({ payload }: { payload: Record<string, unknown> }) {
  return (
    <dl className="console-payload">
      {Object.entries(payload).map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Approvals() {
  const t = useT();
  const can = useCan();
  const me = useOperator();
  const table = useTable({ resource: 'approvals', filters: { status: 'pending', ...filtersFromUrl(['status', 'kind']) } });
  const action = useAction();
  useAfterAction(
    action,
    useCallback(() => table.send({ type: 'table.refreshRequested' }), [table]),
  );
  const columns: Column<Approval>[] = [
    { key: 'id', label: t('console.approvals.id'), numeric: true, sortable: true, render: (a) => a.id },
    { key: 'kind', label: t('console.approvals.kind'), sortable: true, render: (a) => t(`console.approvals.kinds.${a.kind}`) },
    { key: 'target', label: t('console.approvals.target'), render: (a) => `${a.target_type} #${a.target_id}` },
    { key: 'payload', label: t('console.approvals.details'), render: (a) => <Payload payload={a.payload} /> },
    {
      key: 'requested_by_name',
      label: t('console.approvals.requested_by'),
      sortable: true,
      render: (a) => (
        <>
          <span>{a.requested_by_name}</span>
          {me && a.requested_by === me.id && a.status === 'pending' ? (
            <InfoChip kind="info" compact>
              {t('console.action.own_request')}
            </InfoChip>
          ) : null}
        </>
      ),
    },
    { key: 'request_reason', label: t('console.approvals.reason'), render: (a) => a.request_reason },
    { key: 'created_at_ms', label: t('console.approvals.created'), sortable: true, render: (a) => <DateTime value={a.created_at_ms} /> },
    {
      key: 'status',
      label: t('console.approvals.status'),
      render: (a) => (
        <>
          <Status value={a.status} />
          {a.decided_by_name ? <span className="console-muted"> {a.decided_by_name}</span> : null}
        </>
      ),
    },
    {
      key: 'actions',
      label: t('console.table.actions'),
      render: (a) =>
        a.status === 'pending' && can(APPROVAL_PERMISSION[a.kind]) ? (
          <span className="console-row">
            <Button size="sm" aria-label={`${t('console.approvals.approve')} #${a.id}`} onClick={() => action.send({ type: 'action.started', action: 'approval.approve', target: String(a.id), reasonRequired: false })}>
              {t('console.approvals.approve')}
            </Button>
            <Button
              size="sm"
              variant="danger"
              aria-label={`${t('console.approvals.reject')} #${a.id}`}
              onClick={() => action.send({ type: 'action.started', action: 'approval.reject', target: String(a.id), reasonRequired: true })}
            >
              {t('console.approvals.reject')}
            </Button>
          </span>
        ) : null,
    },
  ];
  return (
    <section className="console-area">
      <DataTable
        actor={table}
        caption={t('console.approvals.title')}
        headingLevel={1}
        columns={columns}
        rowKey={(a) => a.id}
        exportable={false}
        filters={
          <>
            <SelectFilter
              actor={table}
              name="status"
              label={t('console.approvals.status')}
              options={(['pending', 'executed', 'rejected', 'all'] as const).map((s) => ({ value: s, label: t(`console.statuses.${s}`) }))}
            />
            <SelectFilter
              actor={table}
              name="kind"
              label={t('console.approvals.kind')}
              options={(['all', ...APPROVAL_KINDS] as const).map((k) => ({ value: k === 'all' ? '' : k, label: t(`console.approvals.kinds.${k}`) }))}
            />
          </>
        }
      />
      <ActionDialog actor={action} />
    </section>
  );
}
