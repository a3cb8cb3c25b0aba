/**
 * The trader's tickets on the Help page: the list (unread ones marked), the new-ticket form and
 * the open thread, with support's answers arriving live (the support_update push reaches the
 * 'support' actor). The view only sends events and reads the actor's state; subjects, messages
 * and file names are rendered as text.
 */
import { useEffect, useId, useState } from 'react';
import type React from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useSelector } from '@xstate/react';
import { useSearch } from 'wouter';
import { useForm } from '@modular-forms/react';
import * as v from 'valibot';
import { ATTACHMENT_ACCEPTED, ATTACHMENT_MAX_FILES, ATTACHMENT_MAX_MB, MESSAGE_MAX, SUBJECT_MAX, type Ticket, type TicketCategory, type TicketMessage } from '../../../contract/support';
import { Button, DateTime, EmptyState, FileField, InfoChip, SkeletonList } from '../../components';
import { useT } from '../../i18n';
import { validateForm } from '../../shared/forms';
import { FormSelectField, FormTextField } from '../../shared/form-fields';
import { useChild } from '../../shared/runtime';
import { TICKET_CATEGORIES, supportText } from './support-text';

export function useSupportActor() {
  const ref = useChild('support');
  if (!ref) throw new Error('support actor missing');
  return ref;
}

type NewTicketValues = { category: string; subject: string; message: string; orderId: string; transactionId: string };

const idText = v.pipe(v.string(), v.trim(), v.regex(/^(\d{1,15})?$/, 'support.validation.id'));
const NewTicketFormSchema = v.object({
  category: v.picklist(TICKET_CATEGORIES, 'support.validation.category'),
  subject: v.pipe(v.string(), v.trim(), v.minLength(1, 'support.validation.subject'), v.maxLength(SUBJECT_MAX, 'support.validation.subject')),
  message: v.pipe(v.string(), v.trim(), v.minLength(1, 'support.validation.message'), v.maxLength(MESSAGE_MAX, 'support.validation.message')),
  orderId: idText,
  transactionId: idText,
});

function StatusChip({ ticket }: { ticket: Ticket }) {
  const t = useT();
  return <span className={`ticket-status ticket-status-${ticket.status}`}>{t(`support.status.${ticket.status}`)}</span>;
}

type TextAreaProps = {
  label: string;
  value: string;
  hint?: string;
  error?: string;
  name: string;
  maxLength: number;
  /** A modular-forms field's element props, or a plain change handler. */
  bound?: { ref: (el: HTMLTextAreaElement | null) => void; onChange: React.ChangeEventHandler<HTMLTextAreaElement>; onBlur: React.FocusEventHandler<HTMLTextAreaElement> };
  onText?: (value: string) => void;
};

function TextArea({ label, value, hint, error, name, maxLength, bound, onText }: TextAreaProps) {
  useSignals();
  const id = useId();
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        className="field-input support-textarea"
        rows={4}
        maxLength={maxLength}
        value={value}
        {...bound}
        onChange={bound ? bound.onChange : (e) => onText?.(e.currentTarget.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        aria-invalid={error ? true : undefined}
      />
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}

function NewTicketForm({ onCancel }: { onCancel: () => void }) {
  const t = useT();
  const support = useSupportActor();
  const submitting = useSelector(support, (s) => s.matches({ loggedIn: { form: 'submitting' } }));
  const formError = useSelector(support, (s) => s.context.formError);
  const [files, setFiles] = useState<File[]>([]);
  const [form, { Form, Field }] = useForm<NewTicketValues>({
    initialValues: { category: '', subject: '', message: '', orderId: '', transactionId: '' },
    validate: validateForm(NewTicketFormSchema),
    validateOn: 'blur',
    revalidateOn: 'change',
  });
  useEffect(() => {
    support.send({ type: 'support.formReset' });
  }, [support]);
  void form;
  return (
    <Form
      className="stack support-form"
      aria-label={t('support.new_ticket')}
      onSubmit={(values) => {
        support.send({
          type: 'support.createRequested',
          request: {
            category: values.category as TicketCategory,
            subject: values.subject.trim(),
            message: values.message.trim(),
            orderId: values.orderId.trim() ? Number(values.orderId) : null,
            transactionId: values.transactionId.trim() ? Number(values.transactionId) : null,
            files,
          },
        });
      }}
    >
      <h3>{t('support.new_ticket')}</h3>
      <Field name="category">
        {(field, props) => (
          <FormSelectField
            {...props}
            field={field}
            required
            label={t('support.category')}
            placeholder={t('support.category_placeholder')}
            options={TICKET_CATEGORIES.map((c) => ({ value: c, label: t(`support.categories.${c}`) }))}
          />
        )}
      </Field>
      <Field name="subject">{(field, props) => <FormTextField {...props} field={field} required maxLength={SUBJECT_MAX} label={t('support.subject')} />}</Field>
      <Field name="message">
        {(field, props) => (
          <TextArea
            name={props.name}
            label={t('support.message')}
            hint={t('support.message_hint')}
            maxLength={MESSAGE_MAX}
            value={typeof field.value.value === 'string' ? field.value.value : ''}
            error={field.error.value ? t(field.error.value) : undefined}
            bound={props}
          />
        )}
      </Field>
      <div className="support-form-ids">
        <Field name="orderId">{(field, props) => <FormTextField {...props} field={field} inputMode="numeric" label={t('support.order_id')} />}</Field>
        <Field name="transactionId">{(field, props) => <FormTextField {...props} field={field} inputMode="numeric" label={t('support.transaction_id')} hint={t('support.linked_hint')} />}</Field>
      </div>
      <FileField
        label={t('support.attachments')}
        accept={ATTACHMENT_ACCEPTED}
        maxFiles={ATTACHMENT_MAX_FILES}
        maxSizeMB={ATTACHMENT_MAX_MB}
        hint={t('support.attachments_hint')}
        value={files}
        onChange={setFiles}
      />
      {formError ? <InfoChip kind="error" live>{supportText(t, formError)}</InfoChip> : null}
      <div className="cluster">
        <Button type="submit" variant="primary" loading={submitting}>
          {t('support.submit')}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          {t('support.cancel')}
        </Button>
      </div>
    </Form>
  );
}

function authorLabel(t: ReturnType<typeof useT>, m: TicketMessage): string {
  if (m.author === 'user') return t('support.you');
  if (m.author === 'system') return t('support.system');
  return m.author_name ? `${t('support.support_team')} · ${m.author_name}` : t('support.support_team');
}

function Thread() {
  const t = useT();
  const support = useSupportActor();
  const ticket = useSelector(support, (s) => s.context.ticket);
  const messages = useSelector(support, (s) => s.context.messages);
  const loading = useSelector(support, (s) => s.matches({ loggedIn: { thread: { open: 'loading' } } }));
  const failed = useSelector(support, (s) => s.matches({ loggedIn: { thread: { open: 'failed' } } }));
  const threadError = useSelector(support, (s) => s.context.threadError);
  const sending = useSelector(support, (s) => s.matches({ loggedIn: { thread: { open: { ready: 'sending' } } } }));
  const closing = useSelector(support, (s) => s.matches({ loggedIn: { thread: { open: { ready: 'closing' } } } }));
  const replyError = useSelector(support, (s) => s.context.replyError);
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [sent, setSent] = useState(0);
  useEffect(() => {
    // A reply that went through empties the box (the message count grew while sending).
    if (!sending && sent > 0 && !replyError) {
      setBody('');
      setFiles([]);
      setSent(0);
    }
  }, [sending, sent, replyError]);
  const back = (
    <Button variant="ghost" size="sm" icon="arrow-left" onClick={() => support.send({ type: 'support.threadClosed' })}>
      {t('support.back')}
    </Button>
  );
  if (failed) {
    return (
      <div className="stack">
        {back}
        <InfoChip kind="error" live action={<Button size="sm" onClick={() => support.send({ type: 'support.refreshRequested' })}>{t('support.retry')}</Button>}>
          {supportText(t, threadError)}
        </InfoChip>
      </div>
    );
  }
  if (loading || !ticket) return <SkeletonList rows={3} label={t('support.loading')} />;
  const closed = ticket.status === 'closed';
  return (
    <div className="stack support-thread">
      {back}
      <header className="support-thread-head">
        <p className="text-sm text-muted">{t('support.ticket_number', { id: ticket.id })}</p>
        <h3 className="support-subject">{ticket.subject}</h3>
        <div className="cluster">
          <StatusChip ticket={ticket} />
          <span className="text-sm text-muted">{t(`support.categories.${ticket.category}`)}</span>
          {ticket.order_id ? <span className="text-sm">{t('support.linked_order', { id: ticket.order_id })}</span> : null}
          {ticket.transaction_id ? <span className="text-sm">{t('support.linked_transaction', { id: ticket.transaction_id })}</span> : null}
        </div>
      </header>
      <ol className="support-messages" aria-label={t('support.thread_label')} aria-live="polite">
        {messages.map((m) => (
          <li key={m.id} className={`support-message support-message-${m.author}`} data-author={m.author}>
            <p className="support-message-meta text-sm">
              <span className="support-message-author">{authorLabel(t, m)}</span> <DateTime value={m.created_at} />
            </p>
            {m.body ? <p className="support-message-body">{m.body}</p> : null}
            {m.attachments.length > 0 ? (
              <ul className="support-attachments">
                {m.attachments.map((a) => (
                  <li key={a.id}>
                    <a href={`/api/v2/support/tickets/${ticket.id}/attachments/${a.id}`} download={a.name} aria-label={t('support.download', { name: a.name })} data-attachment>
                      {a.name}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
      {closed ? (
        <p className="text-muted">{t('support.closed_note')}</p>
      ) : (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            setSent(messages.length + 1);
            support.send({ type: 'support.replyRequested', body, files });
          }}
        >
          <TextArea name="reply" label={t('support.reply')} value={body} onText={setBody} maxLength={MESSAGE_MAX} />
          <FileField label={t('support.attach')} accept={ATTACHMENT_ACCEPTED} maxFiles={ATTACHMENT_MAX_FILES} maxSizeMB={ATTACHMENT_MAX_MB} value={files} onChange={setFiles} />
          {replyError ? <InfoChip kind="error" live>{supportText(t, replyError)}</InfoChip> : null}
          <div className="cluster">
            <Button type="submit" variant="primary" loading={sending} disabled={body.trim() === '' && files.length === 0}>
              {t('support.send')}
            </Button>
            <Button type="button" variant="ghost" loading={closing} onClick={() => support.send({ type: 'support.closeRequested' })}>
              {t('support.close_ticket')}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}

export function SupportTickets() {
  const t = useT();
  const support = useSupportActor();
  const headingId = useId();
  const search = useSearch();
  const tickets = useSelector(support, (s) => s.context.tickets);
  const unread = useSelector(support, (s) => s.context.unread);
  const loading = useSelector(support, (s) => s.matches({ loggedIn: { list: 'loading' } }));
  const listError = useSelector(support, (s) => (s.matches({ loggedIn: { list: 'failed' } }) ? s.context.listError : null));
  const threadOpen = useSelector(support, (s) => !s.matches({ loggedIn: { thread: 'closed' } }));
  const [writing, setWriting] = useState(false);
  const created = useSelector(support, (s) => s.context.ticketId);
  // ?ticket=<id> (the notification's link) opens that thread.
  useEffect(() => {
    const id = Number(new URLSearchParams(search).get('ticket'));
    if (Number.isSafeInteger(id) && id > 0) support.send({ type: 'support.threadOpened', ticketId: id });
  }, [search, support]);
  useEffect(() => {
    if (threadOpen) setWriting(false);
  }, [threadOpen, created]);

  let content;
  if (threadOpen) content = <Thread />;
  else if (writing) content = <NewTicketForm onCancel={() => setWriting(false)} />;
  else if (listError)
    content = (
      <InfoChip kind="error" live action={<Button size="sm" onClick={() => support.send({ type: 'support.refreshRequested' })}>{t('support.retry')}</Button>}>
        {supportText(t, listError)}
      </InfoChip>
    );
  else if (loading) content = <SkeletonList rows={3} label={t('support.loading')} />;
  else if (tickets.length === 0) content = <EmptyState icon="help" title={t('support.tickets_empty')} compact />;
  else
    content = (
      <ul className="support-ticket-list">
        {tickets.map((ticket) => (
          <li key={ticket.id}>
            <button type="button" className="support-ticket" data-unread={ticket.unread || undefined} onClick={() => support.send({ type: 'support.threadOpened', ticketId: ticket.id })}>
              <span className="support-ticket-top">
                <span className="support-subject">{ticket.subject}</span>
                {ticket.unread ? <span className="support-unread">{t('support.unread')}</span> : null}
              </span>
              <span className="support-ticket-meta text-sm text-muted">
                <span>{t('support.ticket_number', { id: ticket.id })}</span>
                <StatusChip ticket={ticket} />
                <DateTime value={ticket.updated_at} />
              </span>
            </button>
          </li>
        ))}
      </ul>
    );

  return (
    <section className="help-tickets panel" aria-labelledby={headingId}>
      <div className="cluster-between">
        <h2 id={headingId}>
          {t('support.tickets_title')}
          {unread > 0 ? <span className="support-badge">{t('support.unread_count', { count: unread })}</span> : null}
        </h2>
        {!threadOpen && !writing ? (
          <Button variant="primary" size="sm" icon="plus" onClick={() => setWriting(true)}>
            {t('support.new_ticket')}
          </Button>
        ) : null}
      </div>
      {content}
    </section>
  );
}
