/**
 * One user: profile, balances, recent orders and transactions, documents (files downloadable),
 * limits; block / unblock with a reason; "Open as user" with a required reason, which shows the
 * one-time link once; a balance adjustment request (four eyes). Everything the user wrote
 * (nickname, names, file names, reasons) is React text, never markup.
 */
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import { Link, useParams } from 'wouter';
import type { UserDetail } from '../../../contract/console';
import { Button, DateTime, InfoChip, SkeletonList } from '../../components';
import { useFormat, useT } from '../../i18n';
import { ActionDialog, useAfterAction, type ActionField } from '../parts/ActionDialog';
import { Amount } from '../parts/Amount';
import { ReadOnlyField } from '../parts/ReadOnlyField';
import { Status } from '../parts/Status';
import { useAction, useCan, useRecord } from '../runtime';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="console-card console-section">
      <h2 className="console-h3">{title}</h2>
      {children}
    </section>
  );
}

export function UserPage() {
  const t = useT();
  const format = useFormat();
  const can = useCan();
  const { id = '' } = useParams<{ id: string }>();
  const record = useRecord({ resource: 'user', params: { id } });
  const data = useSelector(record, (s) => s.context.data) as UserDetail | null;
  const error = useSelector(record, (s) => s.context.error);
  const failed = useSelector(record, (s) => s.matches('failed'));
  const action = useAction();
  useAfterAction(
    action,
    useCallback(() => record.send({ type: 'record.refreshRequested' }), [record]),
  );

  const start = (name: string, fields?: Record<string, string>) => action.send({ type: 'action.started', action: name, target: id, reasonRequired: true, fields });
  const fieldsFor = (name: string): ActionField[] =>
    name === 'user.adjust'
      ? [
          { name: 'currency', label: t('console.users.currency'), options: (data?.balances ?? []).filter((b) => b.account === 'real').map((b) => ({ value: b.currency, label: b.currency })) },
          { name: 'amount', label: t('console.user.amount'), hint: t('console.user.amount_hint'), inputMode: 'decimal' },
        ]
      : [];

  if (!data) {
    return (
      <section className="console-area">
        <Link href="/users">{t('console.user.back')}</Link>
        <h1>{t('console.user.title', { id })}</h1>
        {failed ? (
          <InfoChip kind="error" live action={<Button onClick={() => record.send({ type: 'record.retryRequested' })}>{t('console.table.retry')}</Button>}>
            {t(error ?? 'console.record.load_failed')}
          </InfoChip>
        ) : (
          <SkeletonList rows={6} />
        )}
      </section>
    );
  }
  const { user } = data;
  return (
    <section className="console-area" aria-labelledby="user-title">
      <Link href="/users">{t('console.user.back')}</Link>
      <div className="console-area-top">
        <h1 id="user-title">
          {t('console.user.title', { id: user.id })} · <span>{user.username}</span>
        </h1>
        <Status value={user.blocked_at_ms ? 'blocked' : 'active'} />
        <div className="console-row console-push">
          {can('users.block') ? (
            user.blocked_at_ms ? (
              <Button onClick={() => start('user.unblock')}>{t('console.user.unblock')}</Button>
            ) : (
              <Button variant="danger" onClick={() => start('user.block')}>
                {t('console.user.block')}
              </Button>
            )
          ) : null}
          {can('users.open_as') ? <Button onClick={() => start('user.openAs')}>{t('console.user.open_as')}</Button> : null}
          {can('balance.adjust') ? <Button onClick={() => start('user.adjust', { currency: user.currency })}>{t('console.user.adjust')}</Button> : null}
        </div>
      </div>
      {user.blocked_at_ms ? (
        <InfoChip kind="warning" title={t('console.user.blocked_since', { time: format.dateTime(user.blocked_at_ms) })}>
          {t('console.user.block_reason', { reason: user.blocked_reason ?? t('console.none') })}
        </InfoChip>
      ) : null}
      <div className="console-grid-2">
        <Section title={t('console.user.profile')}>
          <dl className="console-dl">
            <dt>{t('console.users.username')}</dt>
            <dd>{user.username}</dd>
            <dt>{t('console.users.nickname')}</dt>
            <dd>{user.nickname ?? t('console.none')}</dd>
            <dt>{t('console.users.name')}</dt>
            <dd>{`${user.first_name} ${user.last_name}`.trim() || t('console.none')}</dd>
            <dt>{t('console.users.email')}</dt>
            <dd>{user.email}</dd>
            <dt>{t('console.user.email_verified')}</dt>
            <dd>{user.email_verified ? t('console.yes') : t('console.no')}</dd>
            <dt>{t('console.user.two_factor')}</dt>
            <dd>{user.two_factor_enabled ? t('console.yes') : t('console.no')}</dd>
            <dt>{t('console.users.currency')}</dt>
            <dd>{user.currency}</dd>
            <dt>{t('console.users.created')}</dt>
            <dd>
              <DateTime value={user.created_at_ms} />
            </dd>
          </dl>
        </Section>
        <Section title={t('console.user.balances')}>
          <table className="console-table">
            <thead>
              <tr>
                <th scope="col">{t('console.user.account')}</th>
                <th scope="col">{t('console.users.currency')}</th>
                <th scope="col" className="console-num">
                  {t('console.user.amount')}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.balances.map((b) => (
                <tr key={`${b.account}:${b.currency}`}>
                  <td>{b.account}</td>
                  <td>{b.currency}</td>
                  <td className="console-num">
                    <Amount minor={b.amount_minor} currency={b.currency} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3 className="console-h3">{t('console.user.limits')}</h3>
          <p>
            {t('console.user.default_limit')}: <Amount minor={data.limits.default_pair_loss_usd_minor} currency="USD" />
          </p>
        </Section>
      </div>
      <Section title={t('console.user.orders')}>
        {data.orders.length === 0 ? (
          <p className="console-muted">{t('console.table.empty')}</p>
        ) : (
          <table className="console-table">
            <thead>
              <tr>
                <th scope="col">{t('console.users.id')}</th>
                <th scope="col">{t('console.user.pair')}</th>
                <th scope="col">{t('console.user.direction')}</th>
                <th scope="col">{t('console.user.account')}</th>
                <th scope="col" className="console-num">
                  {t('console.user.stake')}
                </th>
                <th scope="col" className="console-num">
                  {t('console.user.payout')}
                </th>
                <th scope="col">{t('console.payments.status')}</th>
                <th scope="col">{t('console.payments.created')}</th>
              </tr>
            </thead>
            <tbody>
              {data.orders.map((o) => (
                <tr key={o.id}>
                  <td className="console-num">{o.id}</td>
                  <td>{o.pair}</td>
                  <td>{o.direction}</td>
                  <td>{o.account}</td>
                  <td className="console-num">
                    <Amount minor={o.stake_minor} currency={o.currency} />
                  </td>
                  <td className="console-num">{o.payout_minor === null ? t('console.none') : <Amount minor={o.payout_minor} currency={o.currency} />}</td>
                  <td>
                    <Status value={o.status} />
                  </td>
                  <td>
                    <DateTime value={o.created_at_ms} withSeconds />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title={t('console.user.transactions')}>
        {data.transactions.length === 0 ? (
          <p className="console-muted">{t('console.table.empty')}</p>
        ) : (
          <table className="console-table">
            <thead>
              <tr>
                <th scope="col">{t('console.payments.id')}</th>
                <th scope="col">{t('console.payments.type')}</th>
                <th scope="col">{t('console.payments.method')}</th>
                <th scope="col" className="console-num">
                  {t('console.payments.amount')}
                </th>
                <th scope="col">{t('console.payments.status')}</th>
                <th scope="col">{t('console.payments.created')}</th>
              </tr>
            </thead>
            <tbody>
              {data.transactions.map((p) => (
                <tr key={p.id}>
                  <td className="console-num">{p.id}</td>
                  <td>{p.type === 'withdrawal' ? t('console.payments.withdrawal') : t('console.payments.deposit')}</td>
                  <td>{p.method}</td>
                  <td className="console-num">
                    <Amount minor={p.amount_minor} currency={p.currency} />
                  </td>
                  <td>
                    <Status value={p.status} />
                  </td>
                  <td>
                    <DateTime value={p.created_at_ms} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title={t('console.user.documents')}>
        {data.documents.length === 0 ? (
          <p className="console-muted">{t('console.table.empty')}</p>
        ) : (
          <ul className="console-plain">
            {data.documents.map((d) => (
              <li key={d.id} className="console-doc">
                <span>{d.type}</span> <Status value={d.status} />{' '}
                {d.files.map((f) => (
                  <a key={f.id} href={`/api/console/kyc/files/${f.id}`} download aria-label={t('console.kyc.file', { name: f.name })} className="console-file">
                    {f.name}
                  </a>
                ))}
                {d.rejection_reason ? <span className="console-muted">{t('console.kyc.rejection', { reason: d.rejection_reason })}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <ActionDialog
        actor={action}
        fieldsFor={fieldsFor}
        subject={
          <>
            {t('console.user.title', { id: user.id })} · {user.username}
          </>
        }
        renderOutcome={(name, outcome) =>
          name === 'user.openAs' && outcome.kind === 'secret' ? (
            <div className="console-secret">
              <InfoChip kind="warning">{t('console.action.secret_once')}</InfoChip>
              <ReadOnlyField label={t('console.user.link')} value={outcome.detail.link ?? ''} />
              <p className="console-muted">{t('console.user.link_expires', { time: format.dateTime(Number(outcome.detail.expiresAt), { withSeconds: false }) })}</p>
            </div>
          ) : undefined
        }
      />
    </section>
  );
}

