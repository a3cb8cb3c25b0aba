/**
 * Risk limits per pair (lowering applies at once, a raise waits for a second risk operator) and
 * the pairs (disable at once; enabling a disabled pair needs four eyes).
 */
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import type { RiskLimits } from '../../../contract/console';
import { Button, DateTime } from '../../components';
import { useFormat, useT } from '../../i18n';
import { ActionDialog, useAfterAction } from '../parts/ActionDialog';
import { Amount } from '../parts/Amount';
import { DataTable, type Column } from '../parts/DataTable';
import { majorOf } from '../parts/format';
import { Status } from '../parts/Status';
import { useAction, useCan, useRecord, useTable } from '../runtime';

type LimitRow = RiskLimits['pairs'][number];
type PairRow = { code: string; human_code: string; category: string; enabled: boolean };

export function Risk() {
  const t = useT();
  const format = useFormat();
  const can = useCan();
  const limits = useTable({ resource: 'risk', sort: { key: 'pair', direction: 'asc' } });
  const pairs = useTable({ resource: 'pairs', sort: { key: 'code', direction: 'asc' } });
  const defaults = useRecord({ resource: 'riskLimits', params: {} });
  const defaultLimit = useSelector(defaults, (s) => (s.context.data as RiskLimits | null)?.default_usd_minor ?? null);
  const action = useAction();
  useAfterAction(
    action,
    useCallback(() => {
      limits.send({ type: 'table.refreshRequested' });
      pairs.send({ type: 'table.refreshRequested' });
    }, [limits, pairs]),
  );
  const limitColumns: Column<LimitRow>[] = [
    { key: 'pair', label: t('console.risk.pair'), sortable: true, render: (r) => r.pair },
    { key: 'limit_usd_minor', label: t('console.risk.limit'), sortable: true, numeric: true, render: (r) => <Amount minor={r.limit_usd_minor} currency="USD" /> },
    { key: 'updated_at_ms', label: t('console.risk.updated'), sortable: true, render: (r) => <DateTime value={r.updated_at_ms} /> },
    {
      key: 'actions',
      label: t('console.table.actions'),
      render: (r) =>
        can('risk.write') ? (
          <Button
            size="sm"
            aria-label={`${t('console.risk.set')} ${r.pair}`}
            onClick={() => action.send({ type: 'action.started', action: 'risk.set', target: r.pair, reasonRequired: true, fields: { limit: String(majorOf(r.limit_usd_minor, 'USD')) } })}
          >
            {t('console.risk.set')}
          </Button>
        ) : null,
    },
  ];
  const pairColumns: Column<PairRow>[] = [
    { key: 'code', label: t('console.risk.code'), sortable: true, render: (p) => p.human_code },
    { key: 'category', label: t('console.risk.category'), sortable: true, render: (p) => p.category },
    { key: 'enabled', label: t('console.risk.state'), sortable: true, render: (p) => <Status value={p.enabled ? 'enabled' : 'disabled'} /> },
    {
      key: 'actions',
      label: t('console.table.actions'),
      render: (p) =>
        can('pairs.write') ? (
          p.enabled ? (
            <Button size="sm" variant="danger" aria-label={`${t('console.risk.disable')} ${p.human_code}`} onClick={() => action.send({ type: 'action.started', action: 'pair.disable', target: p.code, reasonRequired: true })}>
              {t('console.risk.disable')}
            </Button>
          ) : (
            <Button size="sm" aria-label={`${t('console.risk.enable')} ${p.human_code}`} onClick={() => action.send({ type: 'action.started', action: 'pair.enable', target: p.code, reasonRequired: true })}>
              {t('console.risk.enable')}
            </Button>
          )
        ) : null,
    },
  ];
  return (
    <section className="console-area" aria-labelledby="risk-title">
      <h1 id="risk-title">{t('console.risk.title')}</h1>
      {defaultLimit !== null ? <p className="console-muted">{t('console.risk.default_limit', { amount: format.money(majorOf(defaultLimit, 'USD'), 'USD') })}</p> : null}
      <DataTable actor={limits} caption={t('console.risk.limits')} columns={limitColumns} rowKey={(r) => r.pair} exportable={false} />
      <DataTable actor={pairs} caption={t('console.risk.pairs')} columns={pairColumns} rowKey={(p) => p.code} exportable={false} />
      <ActionDialog actor={action} fieldsFor={(name) => (name === 'risk.set' ? [{ name: 'limit', label: t('console.risk.new_limit'), inputMode: 'decimal' }] : [])} />
    </section>
  );
}
