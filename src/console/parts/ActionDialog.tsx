/**
 * The confirmation of every console action (the one action machine): what will happen and who
 * approves it, the reason (required where the server requires it), the action's own fields,
 * then the outcome: done, awaiting a second operator (four eyes), or a secret shown once. A
 * refusal stays in the dialog in the server's words.
 */
import { useSelector } from '@xstate/react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { consoleActionMachine } from '../../../machines/console/console-action.machine';
import type { ActionOutcome } from '../../../machines/console/console.types';
import { Button, InfoChip, Modal, SelectField, TextField } from '../../components';
import { useT } from '../../i18n';
import { actionKey, FOUR_EYES_ACTIONS } from './format';

export type ActionActor = ActorRefFrom<typeof consoleActionMachine>;

export interface ActionField {
  name: string;
  label: string;
  hint?: string;
  options?: Array<{ value: string; label: string }>;
  inputMode?: 'decimal' | 'text' | 'email';
}

export function ActionDialog({
  actor,
  fieldsFor = () => [],
  subject,
  renderOutcome,
}: {
  actor: ActionActor;
  /** The action's own fields besides the reason (amount, role, ...). */
  fieldsFor?: (action: string) => ActionField[];
  /** What the action is on, as the operator reads it ("withdrawal #12, $1,500.00"). */
  subject?: ReactNode;
  /** The outcome's view when it needs more than a sentence (a secret, a verification). */
  renderOutcome?: (action: string, outcome: ActionOutcome) => ReactNode;
}) {
  const t = useT();
  const state = useSelector(actor, (s) => (s.matches('idle') ? 'idle' : s.matches('finished') ? 'finished' : s.matches('submitting') ? 'submitting' : 'confirming'));
  const { action, reasonRequired, error, outcome, fields: initial } = useSelector(actor, (s) => s.context);
  const [reason, setReason] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  useEffect(() => {
    if (state === 'idle') {
      setReason('');
      setFields({});
    }
  }, [state]);
  useEffect(() => setFields(initial), [initial]);
  if (!action || state === 'idle') return null;
  const key = actionKey(action);
  const extra = fieldsFor(action);
  const close = () => actor.send({ type: state === 'finished' ? 'action.dismissed' : 'action.cancelled' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'action.confirmed', reason, fields });
  };

  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : close())}
      title={t(`console.actions.${key}.title`)}
      dismissible={state !== 'submitting'}
      size="md"
      footer={
        state === 'finished' ? (
          <Button variant="primary" onClick={close}>
            {t('console.action.close')}
          </Button>
        ) : (
          <>
            <Button variant="ghost" onClick={close} disabled={state === 'submitting'}>
              {t('console.action.cancel')}
            </Button>
            <Button variant={/reject|block|disable/.test(action) && action !== 'user.unblock' ? 'danger' : 'primary'} type="submit" form="console-action-form" loading={state === 'submitting'}>
              {t('console.action.confirm')}
            </Button>
          </>
        )
      }
    >
      {subject ? <p className="console-subject">{subject}</p> : null}
      {state === 'finished' && outcome ? (
        (renderOutcome?.(action, outcome) ?? (
          <InfoChip kind={outcome.kind === 'awaitingApproval' ? 'warning' : 'success'} live>
            {outcome.kind === 'awaitingApproval' ? t('console.action.awaiting') : t('console.action.done')}
          </InfoChip>
        ))
      ) : (
        <form id="console-action-form" className="console-form" onSubmit={submit} noValidate>
          <p>{t(`console.actions.${key}.what`)}</p>
          <p className="console-muted">{FOUR_EYES_ACTIONS.has(action) ? t('console.action.who_approves_four_eyes') : t('console.action.who_approves_you')}</p>
          {extra.map((f) =>
            f.options ? (
              <SelectField
                key={f.name}
                label={f.label}
                options={f.options}
                value={fields[f.name] ?? ''}
                onChange={(e) => setFields({ ...fields, [f.name]: e.currentTarget.value })}
              />
            ) : (
              <TextField
                key={f.name}
                label={f.label}
                hint={f.hint}
                inputMode={f.inputMode}
                value={fields[f.name] ?? ''}
                onChange={(e) => setFields({ ...fields, [f.name]: e.currentTarget.value })}
              />
            ),
          )}
          {action === 'audit.verify' ? null : (
            <TextField
              label={reasonRequired ? t('console.action.reason') : t('console.action.reason_optional')}
              hint={reasonRequired ? t('console.action.reason_hint') : undefined}
              value={reason}
              maxLength={500}
              onChange={(e) => setReason(e.currentTarget.value)}
              required={reasonRequired}
            />
          )}
          {error ? (
            <InfoChip kind="error" live>
              {t(error)}
            </InfoChip>
          ) : null}
        </form>
      )}
    </Modal>
  );
}

/** Re-reads lists when an action has changed something. */
export function useAfterAction(actor: ActionActor, then: () => void): void {
  useEffect(() => {
    const sub = actor.on('action.completed', then);
    return () => sub.unsubscribe();
  }, [actor, then]);
}
