/**
 * The dashboard: today's deposits and withdrawals, the house result, the open exposure, the
 * queues waiting for an operator and the health of the price feed and of settlement. Live: the
 * record machine reads it again every 15 s.
 */
import { useSelector } from '@xstate/react';
import type { Dashboard as DashboardData } from '../../../contract/console';
import { Button, InfoChip, SkeletonList } from '../../components';
import { useT } from '../../i18n';
import { Amount } from '../parts/Amount';
import { useRecord } from '../runtime';

function PerCurrency({ amounts, signed = false }: { amounts: Record<string, number>; signed?: boolean }) {
  const t = useT();
  const entries = Object.entries(amounts);
  if (!entries.length) return <span className="console-muted">{t('console.dashboard.nothing')}</span>;
  return (
    <ul className="console-plain">
      {entries.map(([currency, minor]) => (
        <li key={currency}>
          <Amount minor={minor} currency={currency} signed={signed} />
        </li>
      ))}
    </ul>
  );
}

function Health({ ok, children, title }: { ok: boolean; title: string; children: React.ReactNode }) {
  const t = useT();
  return (
    <div className="console-card">
      <h3 className="console-h3">{title}</h3>
      <InfoChip kind={ok ? 'success' : 'error'} compact>
        {ok ? t('console.dashboard.ok') : t('console.dashboard.problem')}
      </InfoChip>
      <div className="console-muted">{children}</div>
    </div>
  );
}

export function Dashboard() {
  const t = useT();
  const record = useRecord({ resource: 'dashboard', params: {}, live: true });
  const data = useSelector(record, (s) => s.context.data) as DashboardData | null;
  const failed = useSelector(record, (s) => s.matches('failed'));
  const error = useSelector(record, (s) => s.context.error);
  return (
    <section className="console-area" aria-labelledby="dashboard-title">
      <div className="console-area-top">
        <h1 id="dashboard-title">{t('console.dashboard.title')}</h1>
        {data ? <span className="console-muted">{t('console.dashboard.today', { day: data.day })}</span> : null}
        <Button size="sm" onClick={() => record.send({ type: failed ? 'record.retryRequested' : 'record.refreshRequested' })}>
          {failed ? t('console.table.retry') : t('console.record.refresh')}
        </Button>
      </div>
      {error ? (
        <InfoChip kind="error" live title={data ? t('console.record.stale') : t('console.record.load_failed')}>
          {t(error)}
        </InfoChip>
      ) : null}
      {!data ? (
        failed ? null : <SkeletonList rows={4} />
      ) : (
        <>
          <div className="console-cards">
            <div className="console-card">
              <h2 className="console-h3">{t('console.dashboard.deposits')}</h2>
              <p className="console-big console-num">{t('console.dashboard.count', { count: data.deposits.count })}</p>
              <PerCurrency amounts={data.deposits.amounts} />
            </div>
            <div className="console-card">
              <h2 className="console-h3">{t('console.dashboard.withdrawals')}</h2>
              <p className="console-big console-num">{t('console.dashboard.count', { count: data.withdrawals.count })}</p>
              <PerCurrency amounts={data.withdrawals.amounts} />
            </div>
            <div className="console-card">
              <h2 className="console-h3">{t('console.dashboard.house_result')}</h2>
              <PerCurrency amounts={data.house_result} signed />
            </div>
            <div className="console-card">
              <h2 className="console-h3">{t('console.dashboard.exposure')}</h2>
              <p className="console-big">
                <Amount minor={data.open_exposure_usd_minor} currency="USD" />
              </p>
            </div>
          </div>
          <h2 className="console-h2">{t('console.dashboard.queues')}</h2>
          <dl className="console-cards">
            {(
              [
                ['kyc_pending', data.queues.kyc_pending],
                ['withdrawals_pending', data.queues.withdrawals_pending],
                ['approvals_pending', data.queues.approvals_pending],
                ['support_open', data.queues.support_open],
              ] as const
            ).map(([key, count]) => (
              <div className="console-card" key={key}>
                <dt className="console-h3">{t(`console.dashboard.${key}`)}</dt>
                <dd className="console-big console-num">{count}</dd>
              </div>
            ))}
          </dl>
          <h2 className="console-h2">{t('console.dashboard.health')}</h2>
          <div className="console-cards">
            <Health ok={data.health.feed.ok} title={t('console.dashboard.feed')}>
              {data.health.feed.last_tick_age_ms !== null ? <p>{t('console.dashboard.last_tick', { seconds: Math.round(data.health.feed.last_tick_age_ms / 1000) })}</p> : null}
              <p>{t('console.dashboard.stale_pairs', { count: data.health.feed.stale_pairs })}</p>
            </Health>
            <Health ok={data.health.settlement.ok} title={t('console.dashboard.settlement')}>
              <p>{t('console.dashboard.open_orders', { count: data.health.settlement.open_orders })}</p>
              <p>{t('console.dashboard.overdue_orders', { count: data.health.settlement.overdue_orders })}</p>
            </Health>
          </div>
        </>
      )}
    </section>
  );
}
