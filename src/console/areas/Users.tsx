/** Users: search by id, email, username or nickname; filter by status; sort; open a user. */
import { Link } from 'wouter';
import type { ConsoleUser } from '../../../contract/console';
import { DateTime } from '../../components';
import { useT } from '../../i18n';
import { DataTable, filtersFromUrl, SelectFilter, TextFilter, type Column } from '../parts/DataTable';
import { Status } from '../parts/Status';
import { useTable } from '../runtime';

export function Users() {
  const t = useT();
  const table = useTable({ resource: 'users', filters: filtersFromUrl(['q', 'status']), sort: { key: 'id', direction: 'desc' } });
  const columns: Column<ConsoleUser>[] = [
    { key: 'id', label: t('console.users.id'), sortable: true, numeric: true, render: (u) => u.id },
    {
      key: 'username',
      label: t('console.users.username'),
      sortable: true,
      render: (u) => (
        <Link href={`/users/${u.id}`} aria-label={t('console.users.open', { name: u.username })}>
          {u.username}
        </Link>
      ),
    },
    { key: 'nickname', label: t('console.users.nickname'), render: (u) => u.nickname ?? t('console.none') },
    { key: 'email', label: t('console.users.email'), sortable: true, render: (u) => u.email },
    { key: 'name', label: t('console.users.name'), render: (u) => `${u.first_name} ${u.last_name}`.trim() || t('console.none') },
    { key: 'currency', label: t('console.users.currency'), render: (u) => u.currency },
    { key: 'created_at', label: t('console.users.created'), sortable: true, render: (u) => <DateTime value={u.created_at_ms} /> },
    { key: 'status', label: t('console.users.status'), render: (u) => <Status value={u.blocked_at_ms ? 'blocked' : 'active'} /> },
  ];
  return (
    <section className="console-area">
      <DataTable
        actor={table}
        caption={t('console.users.title')}
        headingLevel={1}
        columns={columns}
        rowKey={(u) => u.id}
        filters={
          <>
            <TextFilter actor={table} name="q" label={t('console.users.search')} wide />
            <SelectFilter
              actor={table}
              name="status"
              label={t('console.users.status')}
              options={[
                { value: '', label: t('console.statuses.all') },
                { value: 'active', label: t('console.statuses.active') },
                { value: 'blocked', label: t('console.statuses.blocked') },
              ]}
            />
          </>
        }
      />
    </section>
  );
}
