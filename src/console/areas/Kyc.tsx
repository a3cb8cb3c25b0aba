/** The KYC queue: documents waiting (or decided), their files to download, approve / reject with a reason. */
import { useCallback } from 'react';
import { Link } from 'wouter';
import type { ConsoleDocument } from '../../../contract/console';
import { Button, DateTime } from '../../components';
import { useT } from '../../i18n';
import { ActionDialog, useAfterAction } from '../parts/ActionDialog';
import { DataTable, filtersFromUrl, SelectFilter, type Column } from '../parts/DataTable';
import { Status } from '../parts/Status';
import { useAction, useCan, useTable } from '../runtime';

export function Kyc() {
  const t = useT();
  const can = useCan();
  const table = useTable({ resource: 'kyc', filters: { status: 'pending', ...filtersFromUrl(['status']) } });
  const action = useAction();
  useAfterAction(
    action,
    useCallback(() => table.send({ type: 'table.refreshRequested' }), [table]),
  );
  const columns: Column<ConsoleDocument>[] = [
    { key: 'id', label: t('console.kyc.id'), numeric: true, sortable: true, render: (d) => d.id },
    { key: 'user_id', label: t('console.kyc.user'), render: (d) => <Link href={`/users/${d.user_id}`}>{`#${d.user_id}`}</Link> },
    { key: 'type', label: t('console.kyc.type'), sortable: true, render: (d) => d.type },
    {
      key: 'files',
      label: t('console.kyc.files'),
      render: (d) => (
        <span className="console-files">
          {d.files.map((f) => (
            <a key={f.id} href={`/api/console/kyc/files/${f.id}`} download className="console-file" aria-label={t('console.kyc.file', { name: f.name })}>
              {f.name}
            </a>
          ))}
        </span>
      ),
    },
    { key: 'status', label: t('console.kyc.status'), render: (d) => <Status value={d.status} /> },
    { key: 'created_at_ms', label: t('console.kyc.created'), sortable: true, render: (d) => <DateTime value={d.created_at_ms} /> },
    {
      key: 'actions',
      label: t('console.table.actions'),
      render: (d) =>
        can('kyc.decide') && d.status === 'pending' ? (
          <span className="console-row">
            <Button size="sm" onClick={() => action.send({ type: 'action.started', action: 'kyc.approve', target: String(d.id), reasonRequired: false })}>
              {t('console.kyc.approve')}
            </Button>
            <Button size="sm" variant="danger" onClick={() => action.send({ type: 'action.started', action: 'kyc.reject', target: String(d.id), reasonRequired: true })}>
              {t('console.kyc.reject')}
            </Button>
          </span>
        ) : d.rejection_reason ? (
          <span className="console-muted">{t('console.kyc.rejection', { reason: d.rejection_reason })}</span>
        ) : null,
    },
  ];
  return (
    <section className="console-area">
      <DataTable
        actor={table}
        caption={t('console.kyc.title')}
        headingLevel={1}
        columns={columns}
        rowKey={(d) => d.id}
        exportable={false}
        filters={
          <SelectFilter
            actor={table}
            name="status"
            label={t('console.kyc.status')}
            options={(['pending', 'approved', 'rejected', 'all'] as const).map((s) => ({ value: s, label: t(`console.statuses.${s}`) }))}
          />
        }
      />
      <ActionDialog actor={action} />
    </section>
  );
}
