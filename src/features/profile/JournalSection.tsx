/**
 * The trading journal (issue 16 item 6): the trader's settled orders of a period (today, this
 * week, this month, all) summed up per account and currency — trades, win rate against the
 * break-even win rate of the payout traded, net result, average stake, best and worst pair,
 * streaks — with a bar chart of the net result by hour of day (plain SVG) and tables by pair and
 * by expiry. The figures are the server's (GET /api/v2/statistics/me); the journal actor holds
 * them. Definitions: contract/statistics.ts, docs/trader-tools.md.
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { JOURNAL_PERIODS, type JournalGroup, type JournalPeriod } from '../../../contract/statistics';
import { groupKeyOf, selectGroup, type JournalMachine } from '../../../machines/journal/journal.machine';
import { Button, EmptyState, Money, SegmentedControl, Skeleton } from '../../components';
import { useFormat, useT } from '../../i18n';
import { pairDisplayName } from '../../i18n/pair-name';
import './journal.css';

type JournalRef = ActorRefFrom<JournalMachine>;

function formatExpiry(seconds: number, t: ReturnType<typeof useT>): string {
  return seconds < 60 || seconds % 60 !== 0 ? t('trading.duration_seconds', { count: seconds }) : t('trading.duration_minutes', { count: seconds / 60 });
}

/** Net result by hour of day, 24 bars around a zero line; empty hours have no bar. */
function HourChart({ group, zone }: { group: JournalGroup; zone: string }) {
  const t = useT();
  const format = useFormat();
  const width = 480;
  const height = 120;
  const pad = 16;
  const barW = (width - pad * 2) / 24;
  const max = Math.max(1e-9, ...group.by_hour.map((h) => Math.abs(h.net_result)));
  const mid = height / 2;
  const scale = (mid - pad) / max;
  const summary = group.by_hour
    .map((h) => t('journal.hour_summary', { hour: String(h.hour).padStart(2, '0'), trades: h.trades, net: format.money(h.net_result, group.currency, { signed: true }) }))
    .join('; ');
  return (
    <figure className="journal-chart">
      <figcaption className="text-sm text-muted">{t('journal.by_hour_title', { zone })}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${t('journal.by_hour_title', { zone })}: ${summary || t('journal.empty')}`} preserveAspectRatio="none">
        <line x1={pad} x2={width - pad} y1={mid} y2={mid} className="journal-chart-zero" />
        {group.by_hour.map((h) => {
          const barH = Math.max(1, Math.abs(h.net_result) * scale);
          const x = pad + h.hour * barW + 1;
          const y = h.net_result >= 0 ? mid - barH : mid;
          return <rect key={h.hour} x={x} y={y} width={Math.max(1, barW - 2)} height={barH} rx={2} className={h.net_result >= 0 ? 'journal-bar-gain' : 'journal-bar-loss'} />;
        })}
      </svg>
      {/* Hour labels in HTML, so the stretched drawing never distorts the text. */}
      <div className="journal-chart-hours" aria-hidden="true">
        {Array.from({ length: 24 }, (_, hour) => (
          <span key={hour}>{hour % 6 === 0 || hour === 23 ? String(hour).padStart(2, '0') : ''}</span>
        ))}
      </div>
    </figure>
  );
}

function Figure({ label, children, hint }: { label: string; children: React.ReactNode; hint?: string }) {
  return (
    <div className="journal-figure">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="journal-figure-value tabular">{children}</dd>
      {hint ? <dd className="text-xs text-muted">{hint}</dd> : null}
    </div>
  );
}

interface ResultsRow {
  key: string;
  label: string;
  trades: number;
  wins: number;
  losses: number;
  net_result: number;
}

/** One breakdown of the results (by pair, by bet time): trades, wins / losses and the net result per row. */
function ResultsTable({ caption, heading, currency, rows }: { caption: string; heading: string; currency: string; rows: ResultsRow[] }) {
  const t = useT();
  return (
    <table className="journal-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{heading}</th>
          <th scope="col">{t('journal.trades')}</th>
          <th scope="col">{t('journal.wins_losses')}</th>
          <th scope="col">{t('journal.net_result')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <th scope="row">{r.label}</th>
            <td className="tabular">{r.trades}</td>
            <td className="tabular">
              {r.wins} / {r.losses}
            </td>
            <td>
              <Money amount={r.net_result} currency={currency} signed tone="auto" />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function GroupView({ group, zone }: { group: JournalGroup; zone: string }) {
  const t = useT();
  const format = useFormat();
  const pct = (v: number | null) => (v === null ? '—' : format.percent(v, 1));
  const beats = group.win_rate !== null && group.break_even_win_rate !== null ? group.win_rate >= group.break_even_win_rate : null;
  const streak = group.streaks.current;
  return (
    <div className="journal-group">
      <dl className="journal-figures">
        <Figure label={t('journal.trades')} hint={t('journal.trades_hint', { wins: group.wins, losses: group.losses, ties: group.ties + group.closed_early })}>
          {format.number(group.trades)}
        </Figure>
        <Figure label={t('journal.win_rate')}>
          <span className={beats === null ? undefined : beats ? 'text-gain' : 'text-loss'}>{pct(group.win_rate)}</span>
        </Figure>
        <Figure
          label={t('journal.break_even')}
          hint={group.average_payout_rate === null ? undefined : t('journal.break_even_hint', { payout: format.percent(group.average_payout_rate, 1) })}
        >
          {pct(group.break_even_win_rate)}
        </Figure>
        <Figure label={t('journal.net_result')}>
          <Money amount={group.net_result} currency={group.currency} signed tone="auto" />
        </Figure>
        <Figure label={t('journal.average_stake')}>
          <Money amount={group.average_stake} currency={group.currency} />
        </Figure>
        <Figure label={t('journal.streak')} hint={t('journal.longest', { wins: group.streaks.longest_win, losses: group.streaks.longest_loss })}>
          {streak ? t(streak.kind === 'won' ? 'journal.streak_wins' : 'journal.streak_losses', { count: streak.length }) : '—'}
        </Figure>
        <Figure label={t('journal.best_pair')}>
          {group.best_pair ? (
            <>
              {pairDisplayName(t, group.best_pair)} <Money amount={group.best_pair.net_result} currency={group.currency} signed tone="auto" />
            </>
          ) : (
            '—'
          )}
        </Figure>
        <Figure label={t('journal.worst_pair')}>
          {group.worst_pair ? (
            <>
              {pairDisplayName(t, group.worst_pair)} <Money amount={group.worst_pair.net_result} currency={group.currency} signed tone="auto" />
            </>
          ) : (
            '—'
          )}
        </Figure>
      </dl>
      {beats !== null ? <p className="text-sm journal-verdict">{t(beats ? 'journal.verdict_above' : 'journal.verdict_below')}</p> : null}
      <HourChart group={group} zone={zone} />
      <div className="journal-tables">
        <ResultsTable
          caption={t('journal.by_pair')}
          heading={t('journal.pair')}
          currency={group.currency}
          rows={group.by_pair.map((p) => ({ key: p.pair_code, label: pairDisplayName(t, p), ...p }))}
        />
        <ResultsTable
          caption={t('journal.by_expiry')}
          heading={t('journal.expiry')}
          currency={group.currency}
          rows={group.by_expiry.map((e) => ({ key: String(e.expiry_seconds), label: formatExpiry(e.expiry_seconds, t), ...e }))}
        />
      </div>
    </div>
  );
}

export function JournalSection({ actor }: { actor: JournalRef | undefined }) {
  const t = useT();
  const period = useSelector(actor, (s) => s?.context.period ?? 'week');
  const state = useSelector(actor, (s) => (s ? String(s.value) : 'loading'));
  const journal = useSelector(actor, (s) => s?.context.journal ?? null);
  const group = useSelector(actor, (s) => (s ? selectGroup(s.context) : null));
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const groups = journal?.groups ?? [];
  return (
    <div className="journal">
      <div className="journal-controls">
        <SegmentedControl<JournalPeriod>
          label={t('journal.period')}
          size="sm"
          value={period}
          onChange={(next) => actor?.send({ type: 'journal.periodChosen', period: next })}
          options={JOURNAL_PERIODS.map((p) => ({ value: p, label: t(`journal.periods.${p}`) }))}
        />
        {groups.length > 1 && group ? (
          <SegmentedControl<string>
            label={t('journal.account')}
            size="sm"
            value={groupKeyOf(group)}
            onChange={(key) => actor?.send({ type: 'journal.accountChosen', groupKey: key })}
            options={groups.map((g) => ({ value: groupKeyOf(g), label: `${t(g.account === 'real' ? 'nav.real_account' : 'nav.demo_account')} · ${g.currency}` }))}
          />
        ) : null}
      </div>
      {state === 'failed' ? (
        <EmptyState
          icon="warning"
          title={t('journal.load_failed')}
          hint={error && error !== 'journal.load_failed' ? t(error) : undefined}
          compact
          action={
            <Button size="sm" variant="secondary" onClick={() => actor?.send({ type: 'journal.retryRequested' })}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : state === 'loading' && !journal ? (
        <Skeleton width="100%" height={160} />
      ) : group && journal ? (
        <>
          {groups.length === 1 ? <p className="text-sm text-muted">{`${t(group.account === 'real' ? 'nav.real_account' : 'nav.demo_account')} · ${group.currency}`}</p> : null}
          <GroupView group={group} zone={journal.time_zone} />
        </>
      ) : (
        <EmptyState icon="stats" title={t('journal.empty')} hint={t('journal.empty_hint')} compact />
      )}
    </div>
  );
}
