/**
 * Operators (admin only): the list; add one (the initial password and the TOTP enrolment secret
 * with its QR code are shown once); change a role; disable one. Each with a reason in the
 * audit log.
 */
import { useCallback } from 'react';
import { OPERATOR_ROLES, type Operator } from '../../../contract/console';
import { Button, DateTime, InfoChip } from '../../components';
import { useT } from '../../i18n';
import { ActionDialog, useAfterAction, type ActionField } from '../parts/ActionDialog';
import { DataTable, type Column } from '../parts/DataTable';
import { ReadOnlyField } from '../parts/ReadOnlyField';
import { Status } from '../parts/Status';
import { useAction, useOperator, useTable } from '../runtime';

export function Operators() {
  const t = useT();
  const me = useOperator();
  const table = useTable({ resource: 'operators', sort: { key: 'id', direction: 'asc' } });
  const action = useAction();
  useAfterAction(
    action,
    useCallback(() => table.send({ type: 'table.refreshRequested' }), [table]),
  );
  const roles = OPERATOR_ROLES.map((r) => ({ value: r, label: t(`console.roles.${r}`) }));
  const fieldsFor = (name: string): ActionField[] =>
    name === 'operator.create'
      ? [
          { name: 'username', label: t('console.operators.username') },
          { name: 'role', label: t('console.operators.role'), options: roles },
          { name: 'email', label: t('console.operators.email'), inputMode: 'email' },
        ]
      : name === 'operator.role'
        ? [{ name: 'role', label: t('console.operators.role'), options: roles }]
        : [];
  const columns: Column<Operator>[] = [
    { key: 'id', label: t('console.operators.id'), sortable: true, numeric: true, render: (o) => o.id },
    { key: 'username', label: t('console.operators.username'), sortable: true, render: (o) => o.username },
    { key: 'role', label: t('console.operators.role'), sortable: true, render: (o) => t(`console.roles.${o.role}`) },
    { key: 'state', label: t('console.operators.state'), render: (o) => <Status value={o.disabled_at_ms ? 'disabled' : 'active'} /> },
    { key: 'created_at_ms', label: t('console.operators.created'), sortable: true, render: (o) => <DateTime value={o.created_at_ms} /> },
    { key: 'last_login_at_ms', label: t('console.operators.last_login'), sortable: true, render: (o) => (o.last_login_at_ms ? <DateTime value={o.last_login_at_ms} /> : t('console.none')) },
    {
      key: 'actions',
      label: t('console.table.actions'),
      render: (o) =>
        o.disabled_at_ms || o.id === me?.id ? null : (
          <span className="console-row">
            <Button
              size="sm"
              aria-label={`${t('console.operators.change_role')}: ${o.username}`}
              onClick={() => action.send({ type: 'action.started', action: 'operator.role', target: String(o.id), reasonRequired: true, fields: { role: o.role } })}
            >
              {t('console.operators.change_role')}
            </Button>
            <Button
              size="sm"
              variant="danger"
              aria-label={`${t('console.operators.disable')}: ${o.username}`}
              onClick={() => action.send({ type: 'action.started', action: 'operator.disable', target: String(o.id), reasonRequired: true })}
            >
              {t('console.operators.disable')}
            </Button>
          </span>
        ),
    },
  ];
  return (
    <section className="console-area" aria-labelledby="operators-title">
      <div className="console-area-top">
        <h1 id="operators-title">{t('console.operators.title')}</h1>
        <Button
          variant="primary"
          className="console-push"
          onClick={() => action.send({ type: 'action.started', action: 'operator.create', target: 'new', reasonRequired: false, fields: { role: 'support' } })}
        >
          {t('console.operators.add')}
        </Button>
      </div>
      <DataTable actor={table} caption={t('console.operators.title')} columns={columns} rowKey={(o) => o.id} exportable={false} />
      <ActionDialog
        actor={action}
        fieldsFor={fieldsFor}
        renderOutcome={(name, outcome) =>
          name === 'operator.create' && outcome.kind === 'secret' ? (
            <div className="console-secret">
              <InfoChip kind="success" live>
                {t('console.operators.created_title', { name: outcome.detail.username ?? '' })}
              </InfoChip>
              <InfoChip kind="warning">{t('console.action.secret_once')}</InfoChip>
              <ReadOnlyField label={t('console.operators.initial_password')} value={outcome.detail.password ?? ''} />
              <ReadOnlyField label={t('console.operators.totp_secret')} value={outcome.detail.totpSecret ?? ''} />
              {outcome.detail.qr ? <img className="console-qr" src={outcome.detail.qr} alt={t('console.operators.qr')} width={192} height={192} /> : null}
              <ReadOnlyField label={t('console.operators.otpauth')} value={outcome.detail.otpauthUrl ?? ''} />
            </div>
          ) : undefined
        }
      />
    </section>
  );
}
