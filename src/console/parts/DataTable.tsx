/**
 * One list of the console on the one table machine: a caption, the screen's filters, a dense
 * table with a sticky header and sortable columns (a button in the header, aria-sort), the
 * loading / error (with Retry) / empty states, pagination and the CSV export. Filters live in
 * the address too (?status=pending), so a filtered list can be shared and reloaded.
 */
import { useSelector } from '@xstate/react';
import { useEffect, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { Button, EmptyState, InfoChip, Pagination, SkeletonList } from '../../components';
import { useT } from '../../i18n';
import { pageCount, type consoleTableMachine } from '../../../machines/console/console-table.machine';

export type TableActor = ActorRefFrom<typeof consoleTableMachine>;

export interface Column<Row> {
  key: string;
  label: string;
  sortable?: boolean;
  numeric?: boolean;
  render: (row: Row) => ReactNode;
}

/** The filters of the address (?a=b) to start a list with. */
export function filtersFromUrl(names: readonly string[]): Record<string, string> {
  const params = new URLSearchParams(window.location.search);
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = params.get(name);
    if (value) out[name] = value;
  }
  return out;
}

export function DataTable<Row>({
  actor,
  caption,
  columns,
  rowKey,
  filters,
  exportable = true,
  headingLevel = 2,
}: {
  actor: TableActor;
  caption: string;
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  filters?: ReactNode;
  exportable?: boolean;
  headingLevel?: 1 | 2;
}) {
  const t = useT();
  const status = useSelector(actor, (s) => (s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : 'ready'));
  const exporting = useSelector(actor, (s) => s.matches({ ready: 'exporting' }));
  const rows = useSelector(actor, (s) => s.context.rows) as Row[];
  const { page, total, sort, error, exportError, filters: current } = useSelector(actor, (s) => s.context);
  const pages = pageCount({ total, pageSize: useSelector(actor, (s) => s.context.pageSize) });
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  // The filters in the address (replaceState: no history entry per keystroke).
  useEffect(() => {
    const params = new URLSearchParams(current);
    const query = params.toString();
    const url = `${window.location.pathname}${query ? `?${query}` : ''}`;
    if (url !== `${window.location.pathname}${window.location.search}`) window.history.replaceState(window.history.state, '', url);
  }, [current]);

  return (
    <div className="console-table-block">
      <div className="console-table-top">
        <Heading className={headingLevel === 1 ? undefined : 'console-h2'}>{caption}</Heading>
        <span className="console-muted console-num">{t('console.table.total', { count: total })}</span>
        {exportable ? (
          <Button size="sm" variant="secondary" loading={exporting} disabled={status !== 'ready'} onClick={() => actor.send({ type: 'table.exportRequested' })}>
            {t('console.table.export')}
          </Button>
        ) : null}
      </div>
      {filters ? <div className="console-filters">{filters}</div> : null}
      {exportError ? (
        <InfoChip kind="error" live>
          {t(exportError)}
        </InfoChip>
      ) : null}
      {status === 'failed' ? (
        <InfoChip
          kind="error"
          live
          title={t('console.table.load_failed')}
          action={
            <Button size="sm" onClick={() => actor.send({ type: 'table.retryRequested' })}>
              {t('console.table.retry')}
            </Button>
          }
        >
          {t(error ?? 'console.table.load_failed')}
        </InfoChip>
      ) : status === 'loading' && rows.length === 0 ? (
        <SkeletonList rows={5} rowHeight={36} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('console.table.empty')} compact level={headingLevel === 1 ? 2 : 3} />
      ) : (
        <div className="console-table-wrap" aria-busy={status === 'loading'}>
          <table className="console-table">
            <thead>
              <tr>
                {columns.map((c) => {
                  const sorted = sort?.key === c.key ? sort.direction : null;
                  return (
                    <th key={c.key} scope="col" className={c.numeric ? 'console-num' : undefined} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                      {c.sortable ? (
                        <button type="button" className="console-sort" aria-label={t('console.table.sort_by', { column: c.label })} onClick={() => actor.send({ type: 'table.sortChanged', key: c.key })}>
                          {c.label}
                          <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ' ↕'}</span>
                        </button>
                      ) : (
                        c.label
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((c) => (
                    <td key={c.key} className={c.numeric ? 'console-num' : undefined}>
                      {c.render(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} totalPages={pages} onChange={(next) => actor.send({ type: 'table.pageChanged', page: next })} disabled={status === 'loading'} />
    </div>
  );
}

/** A select filter bound to the list's machine. */
export function SelectFilter({ actor, name, label, options }: { actor: TableActor; name: string; label: string; options: Array<{ value: string; label: string }> }) {
  const value = useSelector(actor, (s) => s.context.filters[name] ?? '');
  return (
    <label className="console-filter">
      <span>{label}</span>
      <select value={value} onChange={(e) => actor.send({ type: 'table.filterChanged', name, value: e.currentTarget.value })}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A text filter: applied on Enter or when the field is left. */
export function TextFilter({ actor, name, label, wide = false }: { actor: TableActor; name: string; label: string; wide?: boolean }) {
  const value = useSelector(actor, (s) => s.context.filters[name] ?? '');
  const apply = (text: string) => {
    if (text.trim() !== value) actor.send({ type: 'table.filterChanged', name, value: text });
  };
  return (
    <label className={wide ? 'console-filter console-filter-wide' : 'console-filter'}>
      <span>{label}</span>
      <input
        type="search"
        defaultValue={value}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply(e.currentTarget.value);
        }}
        onBlur={(e) => apply(e.currentTarget.value)}
      />
    </label>
  );
}
