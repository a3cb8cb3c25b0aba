/**
 * The withdraw modal (spec section 2: method, details, completion). Opening it starts the
 * withdraw flow (`flow.withdrawStarted` with a fresh key: the app spawns the 'withdraw' actor
 * with the current balances and asks for the method catalogue); closing ends it, which resets
 * the form. Withdrawals come from the real account only, so the real balance of the chosen
 * currency is shown and limits the amount; the payment link is never offered. Steps:
 * - method: currency, category filter, the methods that pay out in it;
 * - details: amount (presets up to what is available) and requisites, checked on blur with
 *   withdraw.schemas.ts; a refusal shows the server's text or withdraw.error_message;
 * - completion: done, failed (contact support) or pending (waiting for the payment provider,
 *   with the estimated processing time), updated live.
 * Shortcuts lead to the deposit modal and to the history.
 */
import { useEffect, useRef, type ChangeEvent } from 'react';
import { useSelector } from '@xstate/react';
import { setValue, useForm, valiForm } from '@modular-forms/react';
import { useSignals } from '@preact/signals-react/runtime';
import { methodOption, type MethodOption } from '../../../machines/payment-methods/amounts';
import { withdrawLimits, withdrawOutcome } from '../../../machines/withdraw/withdraw.machine';
import { withdrawFormSchema, type WithdrawValues } from '../../../machines/withdraw/withdraw.schemas';
import { CARD_NUMBER_MAX_DIGITS, REQUISITES_MAX_LENGTH, isCardMethod } from '../../../contract/payments';
import { Button, Icon, InfoChip, Money, TextField } from '../../components';
import { useT, type TFunction } from '../../i18n';
import { useAppActor, useChild } from '../../shared/runtime';
import { useModalControls } from '../../shared/hooks';
import { MODAL_IDS } from '../../shared/modals';
import type { ModalComponentProps } from '../../shared/modals';
import {
  AmountInput,
  AmountPresets,
  ChosenMethod,
  MethodList,
  ResultPanel,
  fieldText,
  keepFieldFocus,
  newFlowKey,
  useAmountText,
  useMinorMoney,
  WalletFlowModal,
  RateNote,
} from './wallet-parts';

type WithdrawRef = NonNullable<ReturnType<typeof useChild<'withdraw'>>>;
type WithdrawSnapshot = ReturnType<WithdrawRef['getSnapshot']>;

function stepIndex(s: WithdrawSnapshot | undefined): number {
  if (!s || s.matches('method')) return 0;
  if (s.matches('details') || s.matches('submitting')) return 1;
  return 2;
}

export function WithdrawModal({ onClose }: ModalComponentProps) {
  const t = useT();
  const app = useAppActor();
  const withdraw = useChild('withdraw');
  useEffect(() => {
    app.send({ type: 'flow.withdrawStarted', requestKey: newFlowKey() });
    return () => app.send({ type: 'flow.withdrawEnded' });
  }, [app]);
  const step = useSelector(withdraw, stepIndex);
  const busy = useSelector(withdraw, (s) => !!s && s.matches('submitting'));
  const steps = [t('withdraw.step_method'), t('withdraw.step_details'), t('withdraw.step_completion')];
  return (
    <WalletFlowModal title={t('withdraw.title')} steps={steps} stepsLabel={t('withdraw.steps_label')} current={step} busy={busy} other="deposit" onClose={onClose}>
      {withdraw ? <WithdrawStep actor={withdraw} onClose={onClose} /> : null}
    </WalletFlowModal>
  );
}

function WithdrawStep({ actor, onClose }: { actor: WithdrawRef; onClose: () => void }) {
  const step = useSelector(actor, stepIndex);
  if (step === 0) return <MethodStep actor={actor} />;
  if (step === 1) return <DetailsStep actor={actor} />;
  return <CompletionStep actor={actor} onClose={onClose} />;
}

/** The real balance of the flow's currency, as shown and as the limit. */
function RealBalance({ actor }: { actor: WithdrawRef }) {
  const t = useT();
  const currency = useSelector(actor, (s) => s.context.currency);
  const amount = useSelector(actor, (s) => s.context.balances[s.context.currency]?.RealBalance ?? 0);
  return (
    <div className="withdraw-available">
      <span className="text-muted">{t('withdraw.available')}</span>
      <Money amount={amount} currency={currency} className="value-strong" />
    </div>
  );
}

function MethodStep({ actor }: { actor: WithdrawRef }) {
  const t = useT();
  const currency = useSelector(actor, (s) => s.context.currency);
  const selected = useSelector(actor, (s) => s.context.method?.id ?? null);
  return (
    <div className="stack">
      <InfoChip kind="info">{t('withdraw.real_only')}</InfoChip>
      <RealBalance actor={actor} />
      <MethodList
        direction="withdrawal"
        currency={currency}
        selectedId={selected}
        onCurrencyChange={(next) => actor.send({ type: 'withdraw.currencyChosen', currency: next })}
        onChoose={(method) => actor.send({ type: 'withdraw.methodChosen', method })}
      />
    </div>
  );
}

function requisitesLabel(t: TFunction, option: MethodOption): { label: string; hint: string } {
  const { method } = option;
  if (method.integration_type === 'crypto_address') {
    return { label: t('withdraw.wallet_address', { network: method.crypto_network ?? method.payment_currency ?? '' }), hint: t('withdraw.wallet_address_hint') };
  }
  if (method.category === 'bank') return { label: t('withdraw.iban'), hint: t('withdraw.iban_hint') };
  return { label: t('withdraw.card_number'), hint: t('withdraw.card_number_hint') };
}

function DetailsStep({ actor }: { actor: WithdrawRef }) {
  useSignals();
  const t = useT();
  const money = useMinorMoney();
  const amountText = useAmountText();
  const { openDeposit } = useOtherModal();
  const context = useSelector(actor, (s) => s.context);
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const option = context.method ? methodOption(context.method, context.currency, 'withdrawal') : null;
  const limits = withdrawLimits(context) ?? { min: 0, max: 0, decimals: 2, available: 0 };
  const schema = useRef(withdrawFormSchema(limits, context.method));
  schema.current = withdrawFormSchema(limits, context.method);
  const [form, { Form, Field }] = useForm<WithdrawValues>({
    initialValues: { amount: context.amount, requisites: context.requisites },
    validate: (values) => valiForm<WithdrawValues>(schema.current)(values),
    validateOn: 'blur',
    revalidateOn: 'change',
  });
  if (!option) return null;
  const currency = option.currency.iso_code;
  const available = limits.available ?? 0;
  const params = {
    min: money(limits.min, currency, limits.decimals),
    max: money(limits.max, currency, limits.decimals),
    balance: money(available, currency, limits.decimals),
    decimals: limits.decimals,
  };
  const upTo = Math.min(limits.max, available);
  const requisites = requisitesLabel(t, option);
  const paidIn = option.method.payment_currency;
  return (
    <Form className="stack" onSubmit={(values) => actor.send({ type: 'withdraw.submitted', amount: values.amount, requisites: values.requisites })}>
      <ChosenMethod option={option} onChange={() => actor.send({ type: 'withdraw.backRequested' })} disabled={submitting} />
      <RealBalance actor={actor} />
      {paidIn && paidIn !== currency ? <RateNote rates={option.method.rates} from={currency} to={paidIn} /> : null}
      {available < limits.min ? (
        <InfoChip
          kind="warning"
          action={
            <Button size="sm" variant="secondary" icon="deposit" onClick={openDeposit}>
              {t('wallet.go_deposit')}
            </Button>
          }
        >
          {t('withdraw.below_minimum', { min: params.min })}
        </InfoChip>
      ) : null}
      <Field name="amount">
        {(field, props) => (
          <AmountInput
            field={field}
            props={props}
            label={t('withdraw.amount_label')}
            currency={currency}
            params={params}
            disabled={submitting}
            autoFocus
            hint={t('wallet.limits', { min: params.min, max: params.max })}
          />
        )}
      </Field>
      {upTo >= limits.min ? (
        <div className="cluster">
          <AmountPresets
            min={limits.min}
            max={upTo}
            decimals={limits.decimals}
            currency={currency}
            disabled={submitting}
            onPick={(text) => setValue(form, 'amount', text, { shouldValidate: true })}
          />
          <button
            type="button"
            className="amount-preset"
            disabled={submitting}
            onMouseDown={keepFieldFocus}
            onClick={() => setValue(form, 'amount', amountText(upTo, limits.decimals, true), { shouldValidate: true })}
          >
            {t('withdraw.max')}
          </button>
        </div>
      ) : null}
      <Field name="requisites">
        {(field, props) => (
          <RequisitesInput field={field} props={props} label={requisites.label} hint={requisites.hint} card={isCardMethod(option.method)} disabled={submitting} />
        )}
      </Field>
      <DetailsErrors actor={actor} params={params} />
      <p className="text-sm text-muted">{t('wallet.processing_time', { time: t(option.method.estimated_processing_time) })}</p>
      <div className="wallet-actions">
        <Button variant="ghost" className="wallet-back" icon={<Icon name="chevron" direction="left" size={18} />} disabled={submitting} onClick={() => actor.send({ type: 'withdraw.backRequested' })}>
          {t('common.back')}
        </Button>
        <Button type="submit" variant="primary" icon="withdraw" loading={submitting} loadingLabel={t('withdraw.submitting')}>
          {t('withdraw.submit')}
        </Button>
      </div>
    </Form>
  );
}

/** A card number grouped in fours as it is typed ("4111 1111 1111 1111"); anything but digits is dropped. */
function groupCardNumber(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, CARD_NUMBER_MAX_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Regroup a card number field in place, keeping the caret after the same digit. */
function regroup(input: HTMLInputElement): void {
  const caret = input.selectionStart ?? input.value.length;
  const digitsBefore = input.value.slice(0, caret).replace(/\D/g, '').length;
  const grouped = groupCardNumber(input.value);
  if (grouped === input.value) return;
  input.value = grouped;
  let position = 0;
  for (let seen = 0; position < grouped.length && seen < digitsBefore; position++) if (/\d/.test(grouped[position])) seen++;
  if (document.activeElement === input) input.setSelectionRange(position, position);
}

function RequisitesInput({
  field,
  props,
  label,
  hint,
  card,
  disabled,
}: {
  field: { value: { value: unknown }; error: { value: string } };
  props: Record<string, unknown>;
  label: string;
  hint: string;
  /** A card number: the digit keyboard, the browser's saved cards, grouping in fours. */
  card: boolean;
  disabled: boolean;
}) {
  useSignals();
  const t = useT();
  const value = field.value.value;
  const onChange = props.onChange as ((event: ChangeEvent<HTMLInputElement>) => void) | undefined;
  const cardProps = card
    ? {
        inputMode: 'numeric' as const,
        autoComplete: 'cc-number',
        maxLength: CARD_NUMBER_MAX_DIGITS + Math.ceil(CARD_NUMBER_MAX_DIGITS / 4),
        onChange: (event: ChangeEvent<HTMLInputElement>) => {
          regroup(event.currentTarget);
          onChange?.(event);
        },
      }
    : { autoComplete: 'off', maxLength: REQUISITES_MAX_LENGTH + 16 };
  return (
    <TextField
      {...props}
      {...cardProps}
      label={label}
      hint={hint}
      value={typeof value === 'string' ? value : ''}
      error={fieldText(t, field.error.value, {})}
      spellCheck={false}
      inputClassName="value-mono"
      disabled={disabled}
      required
    />
  );
}

/** The server's refusal, or what the machine found wrong when the form let it through. */
function DetailsErrors({ actor, params }: { actor: WithdrawRef; params: Record<string, string | number> }) {
  const t = useT();
  const error = useSelector(actor, (s) => s.context.error);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const refused = useSelector(actor, (s) => s.matches('details') && s.context.error !== null);
  const local = [fieldErrors.amount, fieldErrors.requisites].filter((e): e is string => e !== null);
  return (
    <>
      {refused ? (
        <InfoChip kind="error" live title={t('withdraw.failed_title')}>
          {error || t('withdraw.error_message')}
        </InfoChip>
      ) : null}
      {local.length ? (
        <InfoChip kind="error" live>
          {local.map((e) => fieldText(t, e, params)).join(' ')}
        </InfoChip>
      ) : null}
    </>
  );
}

function useOtherModal() {
  const modals = useModalControls();
  return {
    openDeposit: () => {
      modals.close(MODAL_IDS.withdraw);
      modals.open(MODAL_IDS.deposit);
    },
  };
}

function CompletionStep({ actor, onClose }: { actor: WithdrawRef; onClose: () => void }) {
  const t = useT();
  const app = useAppActor();
  const result = useSelector(actor, (s) => s.context.result);
  const currency = useSelector(actor, (s) => s.context.currency);
  if (!result) return null;
  const outcome = withdrawOutcome(result.status);
  const amount = <Money amount={result.transaction.amount} currency={result.transaction.currency_code || currency} className="value-strong" />;
  return (
    <div className="stack">
      {outcome === 'done' ? (
        <ResultPanel kind="success" title={t('withdraw.done_title')}>
          <p>
            {amount} {t('withdraw.done_text')}
          </p>
        </ResultPanel>
      ) : outcome === 'failed' ? (
        <ResultPanel kind="error" title={t('withdraw.failed_title')}>
          <p>{t('withdraw.failed_text')}</p>
        </ResultPanel>
      ) : (
        <ResultPanel kind="warning" title={t('withdraw.pending_title')}>
          <p>{t('withdraw.pending_text')}</p>
          <p>
            {t('withdraw.estimated_time')} <strong>{t(result.estimated_processing_time)}</strong>
          </p>
          <p className="text-sm text-muted">
            {amount} {t('withdraw.held_note')}
          </p>
        </ResultPanel>
      )}
      <p className="text-sm text-muted tabular text-center">{t('withdraw.reference', { id: result.transaction_id })}</p>
      <div className="wallet-actions">
        <Button variant="secondary" icon="refresh" onClick={() => app.send({ type: 'flow.withdrawStarted', requestKey: newFlowKey() })}>
          {t('withdraw.new_withdrawal')}
        </Button>
        <Button variant="primary" onClick={onClose}>
          {t('common.done')}
        </Button>
      </div>
    </div>
  );
}
