/**
 * The operator's support inbox (issue 27 item 6; docs/support-center.md), mounted by the console
 * shell for the "Support" entry: the ticket table (filters, sort, pages, first-response time),
 * and the selected thread beside the trader's read-only context, where the operator answers,
 * writes internal notes (marked and tinted: never shown to the trader), takes the ticket and
 * sets its status. Self-contained: it runs its own consoleSupport actor (inbox-services.ts);
 * `operatorId` (the signed-in operator) enables "Assign to me". Every text from a person
 * (subjects, messages, names, file names) is rendered as React text, never as markup.
 */
import { useId, useState } from 'react';
import { addFeatureEnglish } from '../../i18n/en-features';
import { useActorRef, useSelector } from '@xstate/react';
import { OPERATOR_STATUSES, TICKET_CATEGORIES, TICKET_STATUSES, type ConsoleThread, type TicketMessage, type TicketStatus } from '../../../contract/support';
import { INBOX_SORTS } from '../../../contract/support';
import { DEFAULT_INBOX_FILTERS, type InboxFilters } from '../../../machines/console-support/console-support.machine';
import { Button, DateTime, EmptyState, InfoChip, SelectField } from '../../components';
import { useT } from '../../i18n';
import { supportInboxLogic } from './inbox-services';
import './SupportInbox.css';

// The inbox's texts (support, console_support) live in the features' English part.
addFeatureEnglish();

type T = ReturnType<typeof useT>;

function waitText(t: T, ms: number | null): string {
  if (ms === null) return t('console_support.no_answer');
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 60) return t('console_support.minutes', { count: minutes });
  if (minutes < 60 * 24) return t('console_support.hours', { count: Math.round(minutes / 60) });
  return t('console_support.days', { count: Math.round(minutes / 1440) });
}

function authorText(t: T, m: TicketMessage, traderName: string): string {
  if (m.author === 'user') return `${t('console_support.trader')} · ${traderName}`;
  if (m.author === 'system') return t('console_support.system');
  return `${t('console_support.operator')} · ${m.author_name ?? ''}`;
}

function Context({ thread }: { thread: ConsoleThread }) {
  const t = useT();
  const c = thread.context;
  return (
    <aside className="inbox-context" aria-label={t('console_support.context')}>
      <h3>{t('console_support.context')}</h3>
      <dl>
        <dt>{t('console_support.profile')}</dt>
        <dd>
          {c.username} · {c.name} (#{c.user_id})
        </dd>
        <dt>{t('console_support.email')}</dt>
        <dd>{c.email}</dd>
        <dt>{t('console_support.verified')}</dt>
        <dd>{t(c.email_verified ? 'console_support.yes' : 'console_support.no')}</dd>
        <dt>{t('console_support.two_factor')}</dt>
        <dd>{t(c.two_factor_enabled ? 'console_support.yes' : 'console_support.no')}</dd>
      </dl>
      <h4>{t('console_support.balances')}</h4>
      <ul>
        {c.balances.map((b) => (
          <li key={`${b.currency}-${b.account}`} className="tabular">
            {b.currency} {b.account}: {b.amount}
          </li>
        ))}
      </ul>
      <h4>{t('console_support.recent_orders')}</h4>
      {c.orders.length === 0 ? <p>{t('console_support.none_yet')}</p> : (
        <ul>
          {c.orders.map((o) => (
            <li key={o.order_id} className="tabular" data-linked={thread.ticket.order_id === o.order_id || undefined}>
              #{o.order_id} {o.pair} {o.direction} {o.amount} {o.currency} · {o.status}
              {o.result ? ` · ${o.result}` : ''}
            </li>
          ))}
        </ul>
      )}
      <h4>{t('console_support.recent_transactions')}</h4>
      {c.transactions.length === 0 ? <p>{t('console_support.none_yet')}</p> : (
        <ul>
          {c.transactions.map((x) => (
            <li key={x.id} className="tabular" data-linked={thread.ticket.transaction_id === x.id || undefined}>
              #{x.id} {x.type} {x.amount} {x.currency} · {x.status}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}

function ThreadPanel({ actor, operatorId }: { actor: ReturnType<typeof useInboxActor>; operatorId: number | null }) {
  const t = useT();
  const thread = useSelector(actor, (s) => s.context.thread);
  const loading = useSelector(actor, (s) => s.matches({ thread: { open: 'loading' } }));
  const failed = useSelector(actor, (s) => (s.matches({ thread: { open: 'failed' } }) ? s.context.threadError : null));
  const busy = useSelector(actor, (s) => !s.matches({ thread: { open: { ready: 'idle' } } }));
  const actionError = useSelector(actor, (s) => s.context.actionError);
  const [body, setBody] = useState('');
  const [status, setStatus] = useState<TicketStatus>('resolved');
  const replyId = useId();
  if (failed) return <InfoChip kind="error" live>{t(failed)}</InfoChip>;
  if (loading || !thread) return <p role="status">{t('console_support.loading')}</p>;
  const tk = thread.ticket;
  const send = (internal: boolean) => {
    actor.send({ type: 'inbox.replyRequested', body, internal });
    setBody('');
  };
  return (
    <section className="inbox-thread" aria-label={t('console_support.thread')}>
      <div className="inbox-thread-main">
        <div className="inbox-thread-head">
          <h2 className="inbox-subject">
            #{tk.id} {tk.subject}
          </h2>
          <Button size="sm" variant="ghost" onClick={() => actor.send({ type: 'inbox.ticketClosed' })}>
            {t('console_support.close_thread')}
          </Button>
        </div>
        <p className="inbox-meta">
          {t(`support.categories.${tk.category}`)} · {t(`support.status.${tk.status}`)} · {t('console_support.col_first_response')}: {waitText(t, tk.first_response_ms)}
        </p>
        <ol className="inbox-messages">
          {thread.messages.map((m) => (
            <li key={m.id} className={`inbox-message inbox-message-${m.author}${m.internal ? ' inbox-note' : ''}`} data-internal={m.internal || undefined}>
              <p className="inbox-message-meta">
                {m.internal ? <strong className="inbox-note-tag">{t('console_support.note')}</strong> : null} {authorText(t, m, tk.username)} · <DateTime value={m.created_at} />
              </p>
              {m.body ? <p className="inbox-message-body">{m.body}</p> : null}
              {m.attachments.length > 0 ? (
                <ul>
                  {m.attachments.map((a) => (
                    <li key={a.id}>
                      <a href={`/api/console/support/tickets/${tk.id}/attachments/${a.id}`} download={a.name}>
                        {a.name}
                      </a>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
        <div className="inbox-actions">
          <div className="field">
            <label className="field-label" htmlFor={replyId}>
              {t('console_support.reply_label')}
            </label>
            <textarea id={replyId} className="field-input inbox-textarea" rows={4} maxLength={5000} value={body} onChange={(e) => setBody(e.currentTarget.value)} />
            <p className="field-hint">{t('console_support.note_hint')}</p>
          </div>
          {actionError ? <InfoChip kind="error" live>{t(actionError)}</InfoChip> : null}
          <div className="inbox-buttons">
            <Button variant="primary" size="sm" disabled={busy || body.trim() === ''} onClick={() => send(false)}>
              {t('console_support.send_reply')}
            </Button>
            <Button size="sm" disabled={busy || body.trim() === ''} onClick={() => send(true)}>
              {t('console_support.send_note')}
            </Button>
            {operatorId !== null && tk.assignee_id !== operatorId ? (
              <Button size="sm" disabled={busy} onClick={() => actor.send({ type: 'inbox.assignRequested', operatorId })}>
                {t('console_support.assign_me')}
              </Button>
            ) : null}
            {tk.assignee_id !== null ? (
              <Button size="sm" variant="ghost" disabled={busy} onClick={() => actor.send({ type: 'inbox.assignRequested', operatorId: null })}>
                {t('console_support.unassign')}
              </Button>
            ) : null}
          </div>
          <div className="inbox-buttons">
            <SelectField
              label={t('console_support.set_status')}
              value={status}
              onChange={(e) => setStatus(e.currentTarget.value as TicketStatus)}
              options={OPERATOR_STATUSES.map((s) => ({ value: s, label: t(`support.status.${s}`) }))}
            />
            <Button size="sm" disabled={busy || status === tk.status} onClick={() => actor.send({ type: 'inbox.statusRequested', status })}>
              {t('console_support.apply_status')}
            </Button>
          </div>
        </div>
      </div>
      <Context thread={thread} />
    </section>
  );
}

function useInboxActor(filters?: Partial<InboxFilters>) {
  return useActorRef(supportInboxLogic(), { input: { filters } });
}

export interface SupportInboxProps {
  /** The signed-in operator's id ("Assign to me"); null hides that button. */
  operatorId?: number | null;
  /** Filters to start with (e.g. read from the console's URL). */
  initialFilters?: Partial<InboxFilters>;
}

export function SupportInbox({ operatorId = null, initialFilters }: SupportInboxProps = {}) {
  const t = useT();
  const actor = useInboxActor(initialFilters);
  const tickets = useSelector(actor, (s) => s.context.tickets);
  const filters = useSelector(actor, (s) => s.context.filters);
  const page = useSelector(actor, (s) => s.context.page);
  const total = useSelector(actor, (s) => s.context.total);
  const limit = useSelector(actor, (s) => s.context.limit);
  const loading = useSelector(actor, (s) => s.matches({ inbox: 'loading' }));
  const inboxError = useSelector(actor, (s) => (s.matches({ inbox: 'failed' }) ? s.context.inboxError : null));
  const selected = useSelector(actor, (s) => s.context.ticketId);
  const threadOpen = useSelector(actor, (s) => !s.matches({ thread: 'closed' }));
  const pages = Math.max(1, Math.ceil(total / limit));
  const setFilter = (patch: Partial<InboxFilters>) => actor.send({ type: 'inbox.filtersChanged', filters: patch });
  const headingId = useId();
  return (
    <section className="console-area support-inbox" aria-labelledby={headingId}>
      <h1 id={headingId}>{t('console_support.title')}</h1>
      <div className="inbox-filters" role="group" aria-label={t('console_support.filters')}>
        <SelectField
          label={t('console_support.status')}
          value={filters.status}
          onChange={(e) => setFilter({ status: e.currentTarget.value as InboxFilters['status'] })}
          options={[
            { value: 'active', label: t('console_support.active') },
            { value: 'all', label: t('console_support.all') },
            ...TICKET_STATUSES.map((s) => ({ value: s, label: t(`support.status.${s}`) })),
          ]}
        />
        <SelectField
          label={t('console_support.assignee')}
          value={filters.assignee}
          onChange={(e) => setFilter({ assignee: e.currentTarget.value })}
          options={[
            { value: 'all', label: t('console_support.all') },
            { value: 'me', label: t('console_support.me') },
            { value: 'none', label: t('console_support.none') },
          ]}
        />
        <SelectField
          label={t('console_support.category')}
          value={filters.category}
          onChange={(e) => setFilter({ category: e.currentTarget.value as InboxFilters['category'] })}
          options={[{ value: 'all', label: t('console_support.all') }, ...TICKET_CATEGORIES.map((c) => ({ value: c, label: t(`support.categories.${c}`) }))]}
        />
        <SelectField
          label={t('console_support.sort')}
          value={filters.sort}
          onChange={(e) => setFilter({ sort: e.currentTarget.value as InboxFilters['sort'] })}
          options={INBOX_SORTS.map((s) => ({ value: s, label: t(`console_support.sorts.${s}`) }))}
        />
        <Button size="sm" onClick={() => actor.send({ type: 'inbox.refreshRequested' })} loading={loading}>
          {t('console_support.refresh')}
        </Button>
      </div>
      {inboxError ? <InfoChip kind="error" live>{t(inboxError)}</InfoChip> : null}
      {!loading && tickets.length === 0 && !inboxError ? (
        <EmptyState title={t('console_support.empty')} level={2} compact />
      ) : (
        <div className="inbox-table-wrap">
          <table className="inbox-table">
            <thead>
              <tr>
                <th scope="col">{t('console_support.col_ticket')}</th>
                <th scope="col">{t('console_support.col_trader')}</th>
                <th scope="col">{t('console_support.col_subject')}</th>
                <th scope="col">{t('console_support.col_status')}</th>
                <th scope="col">{t('console_support.col_assignee')}</th>
                <th scope="col">{t('console_support.col_first_response')}</th>
                <th scope="col">{t('console_support.col_updated')}</th>
              </tr>
            </thead>
            <tbody>
              {tickets.map((tk) => (
                <tr key={tk.id} data-selected={selected === tk.id || undefined}>
                  <td className="tabular">#{tk.id}</td>
                  <td>{tk.username}</td>
                  <td>
                    <button type="button" className="inbox-open" aria-label={t('console_support.open_ticket', { id: tk.id, subject: tk.subject })} onClick={() => actor.send({ type: 'inbox.ticketSelected', ticketId: tk.id })}>
                      {tk.subject}
                    </button>
                  </td>
                  <td>{t(`support.status.${tk.status}`)}</td>
                  <td>{tk.assignee_name ?? t('console_support.unassigned')}</td>
                  <td className="tabular">{waitText(t, tk.first_response_ms)}</td>
                  <td>
                    <DateTime value={tk.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="inbox-pages">
        <Button size="sm" disabled={page <= 1} onClick={() => actor.send({ type: 'inbox.pageChanged', page: page - 1 })}>
          {t('console_support.prev')}
        </Button>
        <span>{t('console_support.page', { page, pages })}</span>
        <Button size="sm" disabled={page >= pages} onClick={() => actor.send({ type: 'inbox.pageChanged', page: page + 1 })}>
          {t('console_support.next')}
        </Button>
      </div>
      {threadOpen ? <ThreadPanel actor={actor} operatorId={operatorId} /> : null}
    </section>
  );
}

export { DEFAULT_INBOX_FILTERS };
export default SupportInbox;
