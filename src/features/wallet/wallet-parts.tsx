/**
 * Pieces shared by the deposit and withdraw modals: the payment-method list (currency choice,
 * category filter, images from /payment_methods/ with a default on load failure, limits, the
 * loading / timed-out / empty states of the catalogue), the amount field with its one-click
 * presets, copyable value rows, the step indicator, the shortcuts to the other modal and to the
 * history, the rate of a conversion with its source and time, and two small hooks (copy to the clipboard with a toast, a ticking clock).
 */
import { useCallback, useId, useMemo, useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useSignals } from '@preact/signals-react/runtime';
import type { ReadonlySignal } from '@preact/signals-react';
import { useLocation } from 'wouter';
import { configuredUsdRate, rateVia, type RateTable } from '../../../contract/currencies';
import { fromMinor } from '../../../contract/money';
import { displayRate, type PaymentCategory, type PaymentMethod } from '../../../contract/payments';
import { amountPresets, methodsFor, type MethodOption, type PaymentDirection } from '../../../machines/payment-methods/amounts';
import { Button, EmptyState, Icon, Modal, SegmentedControl, SelectField, Skeleton, Spinner, TextField, PHONE_QUERY, cx, useMediaQuery } from '../../components';
import { useFormat, useT, type TFunction } from '../../i18n';
import { useBalanceActor, useChild } from '../../shared/runtime';
import { useCopy, useModalControls } from '../../shared/hooks';
import { MODAL_IDS } from '../../shared/modals';
import './wallet.css';
import { SandboxBadge } from '../../shared/SandboxBadge';

export const METHOD_IMAGE_BASE = '/payment_methods/';
export const DEFAULT_METHOD_IMAGE = `${METHOD_IMAGE_BASE}default.svg`;

/** A random key for one opening of a wizard (the idempotency key of its requests starts with it). */
export function newFlowKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A method's picture; the default one when the file cannot be loaded. */
export function MethodImage({ method, size = 40 }: { method: Pick<PaymentMethod, 'avatar_url'>; size?: number }) {
  const [failed, setFailed] = useState(false);
  const src = failed || !method.avatar_url ? DEFAULT_METHOD_IMAGE : `${METHOD_IMAGE_BASE}${encodeURIComponent(method.avatar_url)}`;
  return (
    <img
      className="method-image"
      src={src}
      width={size}
      height={size}
      alt=""
      loading="lazy"
      onError={() => {
        if (!failed) setFailed(true);
      }}
    />
  );
}

/** "$10.00" for minor units of a currency. */
export function useMinorMoney() {
  const format = useFormat();
  return (minor: number, currency: string, decimals: number) => format.money(fromMinor(minor, decimals), currency);
}

/** The catalogue for a currency and direction, with the catalogue's own state. */
export function usePaymentMethods(currency: string, direction: PaymentDirection) {
  const ref = useChild('paymentMethods');
  if (!ref) throw new Error('paymentMethods actor missing');
  const methods = useSelector(ref, (s) => s.context.methods);
  const loading = useSelector(ref, (s) => s.hasTag('loading'));
  const unavailable = useSelector(ref, (s) => s.matches('unavailable'));
  const options = useMemo(() => methodsFor(methods, currency, direction), [methods, currency, direction]);
  return { options, loading, unavailable, hasCatalogue: methods.length > 0, retry: () => ref.send({ type: 'paymentMethods.loadRequested' }) };
}

type CategoryFilter = 'all' | PaymentCategory;

export function MethodList({
  direction,
  currency,
  selectedId,
  onCurrencyChange,
  onChoose,
}: {
  direction: PaymentDirection;
  currency: string;
  selectedId: string | null;
  onCurrencyChange: (currency: string) => void;
  onChoose: (method: PaymentMethod) => void;
}) {
  const t = useT();
  const format = useFormat();
  const money = useMinorMoney();
  const balance = useBalanceActor();
  const currencies = useSelector(balance, (s) => s.context.currencies);
  const { options, loading, unavailable, hasCatalogue, retry } = usePaymentMethods(currency, direction);
  const [category, setCategory] = useState<CategoryFilter>('all');
  const categories = useMemo(() => [...new Set(options.map((o) => o.method.category))], [options]);
  const shown = category === 'all' || !categories.includes(category) ? options : options.filter((o) => o.method.category === category);
  const listLabel = useId();

  let body: ReactNode;
  if (loading && !hasCatalogue) {
    body = (
      <div className="method-list" aria-busy="true">
        <span className="visually-hidden">{t('wallet.methods_loading')}</span>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={64} />
        ))}
      </div>
    );
  } else if (unavailable && !hasCatalogue) {
    body = (
      <EmptyState
        compact
        icon="warning"
        title={t('wallet.methods_unavailable')}
        hint={t('wallet.methods_unavailable_hint')}
        action={
          <Button icon="refresh" onClick={retry}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (options.length === 0) {
    body = <EmptyState compact icon="wallet" title={t('wallet.no_methods')} hint={t('wallet.no_methods_hint')} />;
  } else {
    body = (
      <ul className="method-list" aria-labelledby={listLabel}>
        {shown.map((option) => (
          <li key={option.method.id}>
            <button
              type="button"
              className="method-option"
              aria-pressed={option.method.id === selectedId}
              onClick={() => onChoose(option.method)}
            >
              <MethodImage method={option.method} />
              <span className="method-text">
                <span className="method-name">
                  {t(option.method.name)}
                  {option.method.sandbox ? <SandboxBadge /> : null}
                </span>
                <span className="method-meta tabular">
                  {t('wallet.limits', {
                    min: money(option.min, option.currency.iso_code, option.currency.decimals),
                    max: money(option.max, option.currency.iso_code, option.currency.decimals),
                  })}
                </span>
                <span className="method-meta">{methodNote(t, option, direction)}</span>
              </span>
              <Icon name="chevron" direction="right" size={18} className="method-chevron" />
            </button>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="stack">
      <div className="method-toolbar">
        <SelectField
          label={t('wallet.account_currency')}
          value={currency}
          onChange={(e) => onCurrencyChange(e.currentTarget.value)}
          options={currencies.map((c) => ({ value: c.iso_code, label: format.currencyLabel(c.iso_code, c.name) }))}
          className="method-currency"
        />
        {categories.length > 1 ? (
          <SegmentedControl<CategoryFilter>
            label={t('wallet.category')}
            showLabel
            value={categories.includes(category as PaymentCategory) ? category : 'all'}
            onChange={setCategory}
            options={[{ value: 'all', label: t('wallet.category_all') }, ...categories.map((c) => ({ value: c, label: t(`wallet.category_${c}`) }))]}
          />
        ) : null}
      </div>
      <h3 id={listLabel} className="visually-hidden">
        {t('wallet.choose_method')}
      </h3>
      {body}
      {loading && hasCatalogue ? (
        <p className="text-xs text-muted" role="status">
          {t('wallet.methods_refreshing')}
        </p>
      ) : null}
    </div>
  );
}

function methodNote(t: TFunction, option: MethodOption, direction: PaymentDirection): string {
  const { method } = option;
  if (direction === 'withdrawal') return t('wallet.processing_time', { time: t(method.estimated_processing_time) });
  if (method.integration_type === 'oxapay_link') return t('wallet.pay_by_link');
  if (method.payment_currency) {
    return method.crypto_network
      ? t('wallet.pay_in_network', { currency: method.payment_currency, network: method.crypto_network })
      : t('wallet.pay_in', { currency: method.payment_currency });
  }
  return method.category === 'bank' ? t('wallet.pay_by_transfer') : t('wallet.pay_by_card');
}

/** The chosen method as a compact header of the next step. */
export function ChosenMethod({ option, onChange, disabled }: { option: MethodOption; onChange: () => void; disabled?: boolean }) {
  const t = useT();
  const money = useMinorMoney();
  return (
    <div className="chosen-method panel">
      <MethodImage method={option.method} size={32} />
      <span className="method-text">
        <span className="method-name">{t(option.method.name)}</span>
        <span className="method-meta tabular">
          {t('wallet.limits', {
            min: money(option.min, option.currency.iso_code, option.currency.decimals),
            max: money(option.max, option.currency.iso_code, option.currency.decimals),
          })}
        </span>
      </span>
      <Button variant="ghost" size="sm" onClick={onChange} disabled={disabled}>
        {t('wallet.change_method')}
      </Button>
    </div>
  );
}

interface BoundField {
  value: ReadonlySignal<unknown>;
  error: ReadonlySignal<string>;
}

/** Translates a rule's locale key with the bounds; a server sentence stays as it is. */
export function fieldText(t: TFunction, error: string | null | undefined, params: Record<string, string | number>): string {
  if (!error) return '';
  return /^[a-z_]+(\.[a-z0-9_]+)+$/.test(error) ? t(error, params) : error;
}

/** The amount input bound to a modular-forms field, with the currency after the number. */
export function AmountInput({
  field,
  props,
  label,
  currency,
  hint,
  params,
  disabled,
  autoFocus,
}: {
  field: BoundField;
  props: Record<string, unknown>;
  label: string;
  currency: string;
  hint?: ReactNode;
  params: Record<string, string | number>;
  disabled?: boolean;
  autoFocus?: boolean;
}) {
  useSignals();
  const t = useT();
  const value = field.value.value;
  return (
    <TextField
      {...props}
      label={label}
      value={typeof value === 'string' ? value : ''}
      error={fieldText(t, field.error.value, params)}
      inputMode="decimal"
      autoComplete="off"
      maxLength={24}
      trailing={<span className="amount-currency">{currency}</span>}
      inputClassName="tabular amount-input"
      hint={hint}
      disabled={disabled}
      autoFocus={autoFocus}
      required
    />
  );
}

/**
 * An amount as the user would type it in the current language, without grouping: "1200.50" in
 * English, "1200,50" in Russian and Spanish (the amount field reads either mark). `fixed` keeps
 * all the currency's decimals ("120.50"); otherwise trailing zeros go ("10", "9.2").
 */
export function useAmountText() {
  const format = useFormat();
  const mark = format.number(1.5, 1).charAt(1);
  return useCallback(
    (minor: number, decimals: number, fixed = false) => {
      const amount = fromMinor(minor, decimals);
      const text = fixed ? amount.toFixed(decimals) : String(amount);
      return mark === '.' ? text : text.replace('.', mark);
    },
    [mark],
  );
}

/**
 * For the one-click amount buttons: pressing one keeps the focus in the amount field, so the
 * field's blur check does not run first and shift the buttons (an error line appearing above
 * them) out from under the pointer before the click lands.
 */
export function keepFieldFocus(event: { preventDefault: () => void }): void {
  event.preventDefault();
}

/** One-click amounts inside the limits. */
export function AmountPresets({
  min,
  max,
  decimals,
  currency,
  onPick,
  disabled,
}: {
  min: number;
  max: number;
  decimals: number;
  currency: string;
  onPick: (text: string) => void;
  disabled?: boolean;
}) {
  const t = useT();
  const format = useFormat();
  const amountText = useAmountText();
  const presets = amountPresets(min, max, decimals);
  if (!presets.length) return null;
  return (
    <div className="amount-presets" role="group" aria-label={t('wallet.quick_amounts')}>
      {presets.map((minor) => {
        const amount = fromMinor(minor, decimals);
        return (
          <button
            key={minor}
            type="button"
            className="amount-preset tabular"
            disabled={disabled}
            onMouseDown={keepFieldFocus}
            onClick={() => onPick(amountText(minor, decimals))}
          >
            {format.money(amount, currency)}
          </button>
        );
      })}
    </div>
  );
}

/** A label and a value, with a copy button when the value is something to paste elsewhere. */
export function ValueRow({ label, value, copy, mono = false, children }: { label: string; value: string; copy?: boolean; mono?: boolean; children?: ReactNode }) {
  const t = useT();
  const copyText = useCopy();
  return (
    <div className="value-row">
      <dt className="value-label">{label}</dt>
      <dd className={cx('value-value', mono && 'value-mono')}>
        <span className="value-text">{children ?? value}</span>
        {copy ? <Button variant="ghost" size="sm" icon="copy" aria-label={t('wallet.copy_label', { label })} onClick={() => void copyText(value)} /> : null}
      </dd>
    </div>
  );
}

/** The wizard's steps, the current one marked for assistive tech. */
export function StepIndicator({ steps, current, label }: { steps: string[]; current: number; label: string }) {
  return (
    <ol className="wallet-steps" aria-label={label}>
      {steps.map((step, i) => (
        <li key={step} className="wallet-step" data-state={i < current ? 'done' : i === current ? 'current' : 'todo'} aria-current={i === current ? 'step' : undefined}>
          <span className="wallet-step-number" aria-hidden="true">
            {i < current ? <Icon name="check" size={14} /> : i + 1}
          </span>
          <span className="wallet-step-label">{step}</span>
        </li>
      ))}
    </ol>
  );
}

/**
 * Where the shortcuts go: the modal's footer on wider screens; on a phone they follow the
 * step's content instead, so a pinned footer never covers the primary action when the
 * on-screen keyboard takes half of the height.
 */
export function useShortcutsInFlow(): boolean {
  return useMediaQuery(PHONE_QUERY);
}

/** Links to the other money modal and to the history (spec section 2). */
export function WalletShortcuts({ other, onClose, disabled }: { other: 'deposit' | 'withdraw'; onClose: () => void; disabled?: boolean }) {
  const t = useT();
  const modals = useModalControls();
  const [, navigate] = useLocation();
  const openOther = () => {
    onClose();
    modals.open(other === 'deposit' ? MODAL_IDS.deposit : MODAL_IDS.withdraw);
  };
  const openHistory = () => {
    onClose();
    // The profile page scrolls to the section of the address hash, also when only the hash changes.
    navigate('/profile#transactions');
  };
  return (
    <div className="wallet-shortcuts">
      <Button variant="ghost" size="sm" icon={other === 'deposit' ? 'deposit' : 'withdraw'} onClick={openOther} disabled={disabled}>
        {other === 'deposit' ? t('wallet.go_deposit') : t('wallet.go_withdraw')}
      </Button>
      <Button variant="ghost" size="sm" icon="history" onClick={openHistory} disabled={disabled}>
        {t('wallet.go_history')}
      </Button>
    </div>
  );
}

/**
 * The frame of a money wizard: the modal (not dismissible while a request is out), the step
 * indicator, the current step (a spinner until the flow's actor exists) and the shortcuts, in
 * the footer or, on a phone, after the step (see useShortcutsInFlow).
 */
export function WalletFlowModal({
  title,
  steps,
  stepsLabel,
  current,
  busy,
  other,
  onClose,
  children,
}: {
  title: string;
  steps: string[];
  stepsLabel: string;
  current: number;
  busy: boolean;
  other: 'deposit' | 'withdraw';
  onClose: () => void;
  /** The step, or null while the flow's actor is being spawned. */
  children: ReactNode | null;
}) {
  const t = useT();
  const inFlow = useShortcutsInFlow();
  const shortcuts = <WalletShortcuts other={other} onClose={onClose} disabled={busy} />;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      size="md"
      dismissible={!busy}
      className="wallet-modal"
      footer={inFlow ? undefined : shortcuts}
    >
      <div className="stack">
        <StepIndicator steps={steps} current={current} label={stepsLabel} />
        {children ?? <Spinner label={t('common.loading')} />}
        {inFlow ? <div className="wallet-shortcuts-flow">{shortcuts}</div> : null}
      </div>
    </Modal>
  );
}

/** A large status mark with a title and text, for the result screens. */
export function ResultPanel({ kind, title, children }: { kind: 'success' | 'error' | 'warning' | 'info'; title: string; children?: ReactNode }) {
  const icon = kind === 'success' ? 'check' : kind === 'error' ? 'error' : kind === 'warning' ? 'clock' : 'info';
  return (
    <div className={cx('wallet-result', `wallet-result-${kind}`)} role={kind === 'error' ? 'alert' : 'status'}>
      <span className="wallet-result-icon" aria-hidden="true">
        <Icon name={icon} size={28} />
      </span>
      <h3 className="wallet-result-title">{title}</h3>
      {children ? <div className="wallet-result-text stack-sm stack">{children}</div> : null}
    </div>
  );
}

/** Decimals a rate is shown with: six, or six significant ones below 1 (0.0000106044). */
function rateDecimals(rate: number): number {
  return rate >= 1 ? 6 : Math.min(12, 6 + Math.max(0, -Math.floor(Math.log10(rate)) - 1));
}

/**
 * Where money is converted: "1 EUR = 1.159800 USDT" and where the rate comes from, the market
 * pair and the time of its price, or the configured rate where no pair exists (docs/money.md,
 * "Exchange rates"). `rates`: the server's table (attached to the payment method); `rate` and
 * `at`: the rate a created payment stored and when it was made, when there is one.
 */
export function RateNote({ rates, from, to, rate, at }: { rates: RateTable | undefined; from: string; to: string; rate?: number; at?: number }) {
  const t = useT();
  const format = useFormat();
  const r = rateVia(rates ?? {}, from, to);
  const value = rate ?? displayRate(r.rate);
  const configured = [r.from, r.to].filter((c) => (rates?.[c] ?? configuredUsdRate(c))?.source === 'configured');
  const when = at ?? r.at;
  const time = when === null ? '' : format.dateTime(when, { format: 'HH:mm:ss' });
  const pairs = r.pairs.join(', ');
  const source =
    configured.length === 0
      ? t('wallet.rate_source_pair', { pairs, time })
      : r.pairs.length > 0
        ? t('wallet.rate_source_mixed', { pairs, time, currencies: configured.join(', ') })
        : t('wallet.rate_source_configured', { currencies: configured.join(', ') });
  return (
    <p className="rate-note text-xs">
      <span className="rate-value tabular">{t('wallet.rate_line', { from: r.from, to: r.to, rate: format.number(value, rateDecimals(value)) })}</span>
      <span className="rate-source text-muted">{source}</span>
    </p>
  );
}
