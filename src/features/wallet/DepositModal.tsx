/**
 * The deposit modal (spec section 2: method, amount, process, complete). Opening it starts the
 * deposit flow (`flow.depositStarted` with a fresh key: the app spawns the 'deposit' actor and
 * asks for the method catalogue); closing ends it, so a reopened modal always starts over. The
 * view only reads the deposit actor and sends it the user's choices:
 * - method: account currency, category filter, the methods serving the currency;
 * - amount: the amount with its rules checked on blur (deposit.schemas.ts), quick presets;
 * - process: card requisites with Confirm and an expiry countdown (manual), a crypto address
 *   with network and QR code (integration), or a payment link to open or copy (link); the
 *   provider's live status moves it on;
 * - complete: success, "Payment failed!", "Deposit Failed!" or waiting for the operator.
 * Shortcuts lead to the withdraw modal and to the history.
 */
import { SandboxNote } from '../../shared/SandboxBadge';
import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { useForm, setValue, valiForm } from '@modular-forms/react';
import { useSignals } from '@preact/signals-react/runtime';
import { fromMinor, toMinor } from '../../../contract/money';
import { findCurrency } from '../../../contract/currencies';
import { depositProcessMode, isPollingCurrent } from '../../../machines/deposit/deposit.machine';
import { depositAmountFormSchema, type DepositAmountValues } from '../../../machines/deposit/deposit.schemas';
import { limitsOf, methodOption, type MethodOption } from '../../../machines/payment-methods/amounts';
import { Button, Icon, InfoChip, Money, Spinner } from '../../components';
import { useFormat, useT } from '../../i18n';
import { useAppActor, useBalanceActor, useChild } from '../../shared/runtime';
import type { ModalComponentProps } from '../../shared/modals';
import { useNow } from '../../shared/hooks';
import {
  AmountInput,
  AmountPresets,
  ChosenMethod,
  MethodList,
  ResultPanel,
  ValueRow,
  fieldText,
  newFlowKey,
  useMinorMoney,
  WalletFlowModal,
  RateNote,
} from './wallet-parts';

type DepositRef = NonNullable<ReturnType<typeof useChild<'deposit'>>>;
type DepositSnapshot = ReturnType<DepositRef['getSnapshot']>;

function stepIndex(s: DepositSnapshot | undefined): number {
  if (!s || s.matches('method')) return 0;
  if (s.matches('amount') || s.matches('submitting')) return 1;
  if (s.matches('process')) return 2;
  return 3;
}

/** A decimal amount as plain text to paste into a payment form ("0.00155000"). */
function plainAmount(amount: number, currency: string): string {
  const decimals = findCurrency(currency)?.decimals ?? 2;
  const minor = toMinor(amount, decimals);
  return minor === null ? String(amount) : fromMinor(minor, decimals).toFixed(decimals);
}

export function DepositModal({ onClose }: ModalComponentProps) {
  const t = useT();
  const app = useAppActor();
  const deposit = useChild('deposit');
  useEffect(() => {
    app.send({ type: 'flow.depositStarted', requestKey: newFlowKey() });
    return () => app.send({ type: 'flow.depositEnded' });
  }, [app]);
  const step = useSelector(deposit, stepIndex);
  const busy = useSelector(deposit, (s) => !!s && (s.matches('submitting') || s.matches({ process: { manual: 'confirming' } })));
  const steps = [t('deposit.step_method'), t('deposit.step_amount'), t('deposit.step_process'), t('deposit.step_complete')];
  return (
    <WalletFlowModal title={t('deposit.title')} steps={steps} stepsLabel={t('deposit.steps_label')} current={step} busy={busy} other="withdraw" onClose={onClose}>
      {deposit ? <DepositStep actor={deposit} onClose={onClose} /> : null}
    </WalletFlowModal>
  );
}

function DepositStep({ actor, onClose }: { actor: DepositRef; onClose: () => void }) {
  const value = useSelector(actor, (s) => s.value);
  const snapshot = actor.getSnapshot();
  if (snapshot.matches('method')) return <MethodStep actor={actor} />;
  if (snapshot.matches('amount') || snapshot.matches('submitting')) return <AmountStep actor={actor} />;
  const mode = depositProcessMode(value);
  // The server's flag: a deposit through a sandbox method says so on every later screen.
  const sandbox = snapshot.context.result?.sandbox === true ? <SandboxNote /> : null;
  if (mode === 'manual') return <ManualStep actor={actor} />;
  if (mode === 'integration') return <>{sandbox}<CryptoStep actor={actor} /></>;
  if (mode === 'integrationLink') return <>{sandbox}<LinkStep actor={actor} /></>;
  return <>{sandbox}<CompleteStep actor={actor} onClose={onClose} /></>;
}

function MethodStep({ actor }: { actor: DepositRef }) {
  const t = useT();
  const currency = useSelector(actor, (s) => s.context.currency);
  const selected = useSelector(actor, (s) => s.context.method?.id ?? null);
  return (
    <div className="stack">
      <p className="text-muted text-sm">{t('deposit.method_hint')}</p>
      <MethodList
        direction="deposit"
        currency={currency}
        selectedId={selected}
        onCurrencyChange={(next) => actor.send({ type: 'deposit.currencyChosen', currency: next })}
        onChoose={(method) => actor.send({ type: 'deposit.methodChosen', method })}
      />
    </div>
  );
}

function useOption(actor: DepositRef): MethodOption | null {
  const method = useSelector(actor, (s) => s.context.method);
  const currency = useSelector(actor, (s) => s.context.currency);
  return method ? methodOption(method, currency, 'deposit') : null;
}

function AmountStep({ actor }: { actor: DepositRef }) {
  useSignals();
  const t = useT();
  const money = useMinorMoney();
  const option = useOption(actor);
  const amount = useSelector(actor, (s) => s.context.amount);
  const machineError = useSelector(actor, (s) => s.context.fieldError);
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const limits = option ? limitsOf(option) : { min: 0, max: 0, decimals: 2 };
  const schema = useRef(depositAmountFormSchema(limits));
  schema.current = depositAmountFormSchema(limits);
  const [form, { Form, Field }] = useForm<DepositAmountValues>({
    initialValues: { amount },
    validate: (values) => valiForm<DepositAmountValues>(schema.current)(values),
    validateOn: 'blur',
    revalidateOn: 'change',
  });
  if (!option) return null;
  const currency = option.currency.iso_code;
  const params = { min: money(option.min, currency, limits.decimals), max: money(option.max, currency, limits.decimals), decimals: limits.decimals };
  const { method } = option;
  return (
    <Form className="stack" onSubmit={(values) => actor.send({ type: 'deposit.amountSubmitted', amount: values.amount })}>
      <ChosenMethod option={option} onChange={() => actor.send({ type: 'deposit.backRequested' })} disabled={submitting} />
      <Field name="amount">
        {(field, props) => (
          <AmountInput
            field={field}
            props={props}
            label={t('deposit.amount_label')}
            currency={currency}
            params={params}
            disabled={submitting}
            autoFocus
            hint={t('wallet.limits', { min: params.min, max: params.max })}
          />
        )}
      </Field>
      <AmountPresets
        min={option.min}
        max={option.max}
        decimals={limits.decimals}
        currency={currency}
        disabled={submitting}
        onPick={(text) => setValue(form, 'amount', text, { shouldValidate: true })}
      />
      {machineError ? <InfoChip kind="error">{fieldText(t, machineError, params)}</InfoChip> : null}
      {method.payment_currency && method.payment_currency !== currency ? (
        <>
          <InfoChip kind="info">
            {method.crypto_network
              ? t('deposit.converted_note_network', { currency: method.payment_currency, network: method.crypto_network })
              : t('deposit.converted_note', { currency: method.payment_currency })}
          </InfoChip>
          <RateNote rates={method.rates} from={currency} to={method.payment_currency} />
        </>
      ) : null}
      <div className="wallet-actions">
        <Button variant="ghost" className="wallet-back" icon={<Icon name="chevron" direction="left" size={18} />} disabled={submitting} onClick={() => actor.send({ type: 'deposit.backRequested' })}>
          {t('common.back')}
        </Button>
        <Button type="submit" variant="primary" loading={submitting} loadingLabel={t('deposit.creating')}>
          {t('deposit.continue')}
        </Button>
      </div>
    </Form>
  );
}

/**
 * Time left until the deposit's expiry, and whether it has passed: only while the payment is
 * awaited (pending). Once paid (processing) or over, the window no longer matters.
 */
function Expiry({ actor, expiredAt }: { actor: DepositRef; expiredAt: number | null }) {
  const t = useT();
  const format = useFormat();
  const status = useSelector(actor, (s) => s.context.paymentStatus);
  const awaited = expiredAt !== null && (status === null || status === 'pending');
  const now = useNow({ active: awaited });
  if (expiredAt === null || !awaited) return null;
  const left = expiredAt * 1000 - now;
  if (left <= 0) return <InfoChip kind="warning">{t('deposit.expired_note')}</InfoChip>;
  return (
    <p className="deposit-expiry text-sm">
      <Icon name="clock" size={16} />
      <span>{t('deposit.expires_in')}</span>
      <span className="tabular deposit-countdown" aria-live="off">
        {format.countdown(left)}
      </span>
    </p>
  );
}

function useResult(actor: DepositRef) {
  const result = useSelector(actor, (s) => s.context.result);
  if (!result) throw new Error('deposit result missing in the process step');
  return result;
}

function BackToAmount({ actor, disabled }: { actor: DepositRef; disabled?: boolean }) {
  const t = useT();
  return (
    <Button variant="ghost" className="wallet-back" icon={<Icon name="chevron" direction="left" size={18} />} disabled={disabled} onClick={() => actor.send({ type: 'deposit.backRequested' })}>
      {t('common.back')}
    </Button>
  );
}

/** What the provider has said so far while the payment is awaited. */
function Waiting({ actor }: { actor: DepositRef }) {
  const t = useT();
  const status = useSelector(actor, (s) => s.context.paymentStatus);
  // polling_status: the server is checking this deposit's status with the provider.
  const checking = useSelector(actor, (s) => isPollingCurrent(s.context));
  return (
    <div className="deposit-waiting" role="status">
      <Spinner decorative size={18} />
      <span>
        {status === 'processing' ? t('deposit.processing_note') : t('deposit.waiting_payment')}
        {checking && <small className="deposit-checking">{t('deposit.checking_status')}</small>}
      </span>
    </div>
  );
}

function ManualStep({ actor }: { actor: DepositRef }) {
  const t = useT();
  const format = useFormat();
  const result = useResult(actor);
  const confirming = useSelector(actor, (s) => s.matches({ process: { manual: 'confirming' } }));
  const confirmError = useSelector(actor, (s) => s.context.confirmError);
  const now = useNow({ active: result.expired_at !== null, everyMs: 5000 });
  const expired = result.expired_at !== null && result.expired_at * 1000 <= now;
  const requisit = result.transaction.requisit;
  const payAmount = format.money(result.amount_payment_currency, result.payment_currency);
  return (
    <div className="stack">
      <InfoChip kind="info">{t('deposit.manual_instructions', { amount: payAmount })}</InfoChip>
      <dl className="value-list">
        {requisit?.card_number ? <ValueRow label={t('deposit.card_number')} value={requisit.card_number} copy mono /> : null}
        {requisit?.cardholder_name ? <ValueRow label={t('deposit.cardholder')} value={requisit.cardholder_name} copy /> : null}
        {requisit?.iban ? <ValueRow label={t('deposit.iban')} value={requisit.iban} copy mono /> : null}
        {requisit?.bank_name ? <ValueRow label={t('deposit.bank_name')} value={requisit.bank_name} /> : null}
        {requisit?.beneficiary ? <ValueRow label={t('deposit.beneficiary')} value={requisit.beneficiary} copy /> : null}
        <ValueRow label={t('deposit.amount_to_pay')} value={plainAmount(result.amount_payment_currency, result.payment_currency)} copy>
          <span className="tabular value-strong">{payAmount}</span>
        </ValueRow>
        <ValueRow label={t('deposit.reference')} value={String(result.transaction_id)} copy mono>
          <span className="tabular">#{result.transaction_id}</span>
        </ValueRow>
      </dl>
      <Expiry actor={actor} expiredAt={result.expired_at} />
      {confirmError !== null ? (
        <InfoChip kind="error" live title={t('deposit.confirmed_error')}>
          {confirmError || t('deposit.confirmed_error_hint')}
        </InfoChip>
      ) : null}
      <div className="wallet-actions">
        <BackToAmount actor={actor} disabled={confirming} />
        <Button variant="primary" icon="check" loading={confirming} loadingLabel={t('deposit.confirming')} disabled={expired} onClick={() => actor.send({ type: 'deposit.confirmRequested' })}>
          {t('deposit.confirm')}
        </Button>
      </div>
    </div>
  );
}

/** The stored rate of a created deposit paid in another currency, with the source it came from. */
function ResultRate({ actor }: { actor: DepositRef }) {
  const result = useResult(actor);
  const method = useSelector(actor, (s) => s.context.method);
  if (result.payment_currency === result.currency) return null;
  return <RateNote rates={method?.rates} from={result.currency} to={result.payment_currency} rate={result.exchange_rate} at={result.transaction.created_at} />;
}

function CryptoStep({ actor }: { actor: DepositRef }) {
  const t = useT();
  const format = useFormat();
  const result = useResult(actor);
  const data = result.integration_data;
  const amount = data?.amount ?? result.amount_payment_currency;
  const currency = data?.currency ?? result.payment_currency;
  return (
    <div className="stack">
      <div className="crypto-box">
        {data?.qr_code ? <img className="crypto-qr" src={data.qr_code} alt={t('deposit.qr_alt', { currency })} width={176} height={176} /> : null}
        <dl className="value-list value-list-stacked crypto-values">
          <ValueRow label={t('deposit.amount_to_send')} value={plainAmount(amount, currency)} copy>
            <span className="tabular value-strong">{format.money(amount, currency, { code: true })}</span>
          </ValueRow>
          {data?.crypto_network ? <ValueRow label={t('deposit.network')} value={data.crypto_network} /> : null}
          {data?.crypto_wallet_address ? <ValueRow label={t('deposit.wallet_address')} value={data.crypto_wallet_address} copy mono /> : null}
        </dl>
      </div>
      <ResultRate actor={actor} />
      <InfoChip kind="warning">{t('deposit.crypto_warning', { currency, network: data?.crypto_network ?? '' })}</InfoChip>
      <Expiry actor={actor} expiredAt={result.expired_at} />
      <Waiting actor={actor} />
      <div className="wallet-actions">
        <BackToAmount actor={actor} />
      </div>
    </div>
  );
}

function LinkStep({ actor }: { actor: DepositRef }) {
  const t = useT();
  const format = useFormat();
  const result = useResult(actor);
  const url = result.payment_url ?? result.integration_data?.payment_url ?? null;
  return (
    <div className="stack">
      <InfoChip kind="info">{t('deposit.link_instructions')}</InfoChip>
      <dl className="value-list">
        <ValueRow label={t('deposit.amount_to_pay')} value={plainAmount(result.amount_payment_currency, result.payment_currency)}>
          <span className="tabular value-strong">{format.money(result.amount_payment_currency, result.payment_currency)}</span>
        </ValueRow>
        {url ? <ValueRow label={t('deposit.payment_link')} value={url} copy mono /> : null}
      </dl>
      <ResultRate actor={actor} />
      {url ? (
        <a className="btn btn-primary btn-lg btn-block" href={url} target="_blank" rel="noopener noreferrer">
          <Icon name="external" size={20} />
          <span className="btn-label">{t('deposit.open_payment_page')}</span>
          <span className="visually-hidden"> ({t('wallet.opens_new_tab')})</span>
        </a>
      ) : null}
      <Expiry actor={actor} expiredAt={result.expired_at} />
      <Waiting actor={actor} />
      <div className="wallet-actions">
        <BackToAmount actor={actor} />
      </div>
    </div>
  );
}

function CompleteStep({ actor, onClose }: { actor: DepositRef; onClose: () => void }) {
  const t = useT();
  const app = useAppActor();
  const balance = useBalanceActor();
  const balanceType = useSelector(balance, (s) => s.context.balanceType);
  const snapshot = useSelector(actor, (s) => s);
  const { result, error, paymentStatus, currency } = snapshot.context;
  const amount = result ? <Money amount={result.transaction.amount} currency={result.currency || currency} className="value-strong" /> : null;
  const again = (
    <Button variant="secondary" icon="refresh" onClick={() => app.send({ type: 'flow.depositStarted', requestKey: newFlowKey() })}>
      {t('deposit.new_deposit')}
    </Button>
  );
  const done = (
    <Button variant="primary" onClick={onClose}>
      {t('common.done')}
    </Button>
  );

  if (snapshot.matches({ complete: 'succeeded' })) {
    return (
      <div className="stack">
        <ResultPanel kind="success" title={t('deposit.success_title')}>
          <p>
            {amount} {t('deposit.success_text')}
          </p>
        </ResultPanel>
        <div className="wallet-actions">
          {balanceType !== 'RealBalance' ? (
            <Button
              variant="ghost"
              onClick={() => {
                // The real account is shown where it lives, the header and the trade panel: close the modal.
                balance.send({ type: 'balance.typeChosen', balanceType: 'RealBalance' });
                onClose();
              }}
            >
              {t('deposit.show_real_account')}
            </Button>
          ) : null}
          {again}
          {done}
        </div>
      </div>
    );
  }
  if (snapshot.matches({ complete: 'failed' })) {
    const reason = paymentStatus === 'expired' ? t('deposit.failed_expired') : paymentStatus === 'cancelled' ? t('deposit.failed_cancelled') : t('deposit.failed_text');
    return (
      <div className="stack">
        <ResultPanel kind="error" title={t('deposit.payment_failed')}>
          <p>{reason}</p>
        </ResultPanel>
        <div className="wallet-actions">
          <Button variant="ghost" onClick={onClose}>
            {t('common.close')}
          </Button>
          {again}
        </div>
      </div>
    );
  }
  if (snapshot.matches({ complete: 'requestFailed' })) {
    return (
      <div className="stack">
        <ResultPanel kind="error" title={t('deposit.deposit_failed')}>
          <p>{error ? t(error) : t('deposit.request_failed_text')}</p>
        </ResultPanel>
        <div className="wallet-actions">
          <Button variant="ghost" onClick={onClose}>
            {t('common.close')}
          </Button>
          <Button variant="primary" icon="refresh" onClick={() => actor.send({ type: 'deposit.retryRequested' })}>
            {t('common.retry')}
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="stack">
      <ResultPanel kind="warning" title={t('deposit.pending_title')}>
        <p>
          {amount} {t('deposit.pending_text')}
        </p>
      </ResultPanel>
      <div className="deposit-waiting" role="status">
        <Spinner decorative size={18} />
        <span>{t('deposit.pending_wait')}</span>
      </div>
      <div className="wallet-actions">{done}</div>
    </div>
  );
}
