/**
 * The audit log: every console and CLI action, newest first, filtered by action, operator and
 * target (?target_type=user&target_id=5 is the trail of one thing); CSV export; "Verify chain"
 * recomputes the hash chain on the server and names the first broken row.
 */
import type { AuditEntry } from '../../../contract/console';
import { Button, DateTime, InfoChip } from '../../components';
import { useT } from '../../i18n';
import { ActionDialog } from '../parts/ActionDialog';
import { DataTable, filtersFromUrl, TextFilter, type Column } from '../parts/DataTable';
import { useAction, useTable } from '../runtime';

export function Audit() {
  const t = useT();
  const table = useTable({ resource: 'audit', filters: filtersFromUrl(['action', 'operator', 'target_type', 'target_id']) });
  const action = useAction();
  const columns: Column<AuditEntry>[] = [
    { key: 'id', label: t('console.audit.id'), numeric: true, render: (e) => e.id },
    { key: 'time', label: t('console.audit.time'), render: (e) => <DateTime value={e.created_at_ms} withSeconds /> },
    { key: 'operator', label: t('console.audit.operator'), render: (e) => (e.os_user ? `${e.operator_name} (${e.os_user})` : e.operator_name) },
    { key: 'role', label: t('console.audit.role'), render: (e) => e.role },
    { key: 'action', label: t('console.audit.action'), render: (e) => <code>{e.action}</code> },
    { key: 'target', label: t('console.audit.target'), render: (e) => (e.target_type ? `${e.target_type} #${e.target_id ?? ''}` : t('console.none')) },
    { key: 'reason', label: t('console.audit.reason'), render: (e) => <span className="console-break">{e.reason ?? t('console.none')}</span> },
    { key: 'ip', label: t('console.audit.ip'), render: (e) => e.ip ?? t('console.none') },
    { key: 'source', label: t('console.audit.source'), render: (e) => e.source },
    { key: 'hash', label: t('console.audit.hash'), render: (e) => <code title={e.hash}>{e.hash.slice(0, 10)}</code> },
  ];
  return (
    <section className="console-area" aria-labelledby="audit-title">
      <div className="console-area-top">
        <h1 id="audit-title">{t('console.audit.title')}</h1>
        <Button className="console-push" onClick={() => action.send({ type: 'action.started', action: 'audit.verify', target: 'chain', reasonRequired: false })}>
          {t('console.audit.verify')}
        </Button>
      </div>
      <DataTable
        actor={table}
        caption={t('console.audit.title')}
        columns={columns}
        rowKey={(e) => e.id}
        filters={
          <>
            <TextFilter actor={table} name="action" label={t('console.audit.action')} />
            <TextFilter actor={table} name="operator" label={t('console.audit.operator')} />
            <TextFilter actor={table} name="target_type" label={t('console.audit.target_type')} />
            <TextFilter actor={table} name="target_id" label={t('console.audit.target_id')} />
          </>
        }
      />
      <ActionDialog
        actor={action}
        renderOutcome={(_, outcome) =>
          outcome.kind === 'done' && outcome.detail ? (
            outcome.detail.ok === 'true' ? (
              <InfoChip kind="success" live>
                {t('console.audit.verify_ok', { checked: outcome.detail.checked ?? '0' })}
              </InfoChip>
            ) : (
              <InfoChip kind="error" live>
                {t('console.audit.verify_broken', { id: outcome.detail.brokenId ?? '', checked: outcome.detail.checked ?? '0' })}
              </InfoChip>
            )
          ) : undefined
        }
      />
    </section>
  );
}
