/**
 * The balance panel (spec section 2): a currency selector, the demo account with a reset
 * action, the real account with a deposit action. Choosing a currency or an account type goes
 * to the balance actor, which saves it to the front settings. Reset asks first (DemoResetDialog);
 * both actions carry visible text, not only an icon. The real account has its own colour.
 * Once a choice is saved, the spec's success message ("Currency changed", "Account type
 * changed") shows beside its control in a live region, not as a toast (issue 26); a failed
 * save still toasts its error.
 */
import { useId } from 'react';
import { useSelector } from '@xstate/react';
import type { BalanceType } from '../../../contract/user';
import { Button, Icon, Money, SelectField } from '../../components';
import { useFormat, useT } from '../../i18n';
import { useBalanceView, useConnectionState, useModalControls } from '../../shared/hooks';
import { currenciesProblem } from '../../../machines/balance/balance.machine';
import { useBalanceActor } from '../../shared/runtime';
import { MODAL_IDS } from '../../shared/modals';
import './shell.css';

export function BalancePanel({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  const format = useFormat();
  const balance = useBalanceActor();
  const { currency, balanceType, resetting } = useBalanceView();
  const currencies = useSelector(balance, (s) => s.context.currencies);
  const currenciesLoaded = useSelector(balance, (s) => s.context.currenciesLoaded);
  const socketLive = useConnectionState() === 'live';
  const currencyProblem = currenciesProblem({ currenciesLoaded }, socketLive);
  const entry = useSelector(balance, (s) => s.context.balances[s.context.selectedCurrency]);
  const modals = useModalControls();
  const name = useId();
  const savedNote = useSelector(balance, (s) => s.context.savedNote);
  const note = (key: NonNullable<typeof savedNote>) => (
    <p className="settings-saved-note" role="status">
      {savedNote === key ? (
        <>
          <Icon name="check" size={16} />
          {t(key)}
        </>
      ) : null}
    </p>
  );

  const choose = (type: BalanceType) => balance.send({ type: 'balance.typeChosen', balanceType: type });
  const accounts: { type: BalanceType; label: string; amount: number }[] = [
    { type: 'DemoBalance', label: t('nav.demo_account'), amount: entry?.DemoBalance ?? 0 },
    { type: 'RealBalance', label: t('nav.real_account'), amount: entry?.RealBalance ?? 0 },
  ];

  return (
    <div className="balance-panel stack">
      <SelectField
        label={t('nav.currency')}
        value={currency}
        onChange={(e) => balance.send({ type: 'balance.currencyChosen', currency: e.currentTarget.value })}
        error={currencyProblem ? t(currencyProblem) : undefined}
        options={currencies.map((c) => ({ value: c.iso_code, label: format.currencyLabel(c.iso_code, c.name) }))}
      />
      {note('settings.currency_saved')}
      <fieldset className="balance-accounts">
        <legend className="visually-hidden">{t('nav.account_type')}</legend>
        {accounts.map((account) => (
          <div
            key={account.type}
            className="balance-account"
            data-account={account.type === 'RealBalance' ? 'real' : 'demo'}
            data-selected={account.type === balanceType || undefined}
          >
            <label className="balance-account-choice">
              <input
                type="radio"
                name={name}
                value={account.type}
                checked={account.type === balanceType}
                onChange={() => choose(account.type)}
              />
              <span className="balance-account-text">
                <span className="balance-account-label">{account.label}</span>
                <Money amount={account.amount} currency={currency} className="balance-account-amount" />
              </span>
            </label>
            {account.type === 'DemoBalance' ? (
              <Button
                size="sm"
                variant="ghost"
                icon="refresh"
                className="balance-account-action"
                aria-label={t('nav.reset_demo')}
                title={t('nav.reset_demo')}
                loading={resetting}
                onClick={() => modals.open(MODAL_IDS.demoReset, { currency })}
              >
                {t('nav.reset_short')}
              </Button>
            ) : (
              <Button
                size="sm"
                variant="ghost"
                icon="deposit"
                className="balance-account-action"
                onClick={() => {
                  onNavigate?.();
                  modals.open(MODAL_IDS.deposit);
                }}
              >
                {t('nav.deposit')}
              </Button>
            )}
          </div>
        ))}
      </fieldset>
      {note('settings.balance_type_saved')}
    </div>
  );
}

/**
 * The header's balance box: account type and amount; opens the panel. The real account has
 * its own look (gold frame and text with a wallet icon, UI.md "Real account"), so it is never
 * mistaken for the demo one.
 */
export function BalanceSummary() {
  const t = useT();
  const { amount, currency, balanceType } = useBalanceView();
  const real = balanceType === 'RealBalance';
  return (
    <span className="balance-box" data-account={real ? 'real' : 'demo'}>
      <span className="balance-box-type">
        {real ? <Icon name="wallet" size={12} /> : null}
        {real ? t('nav.real_account') : t('nav.demo_account')}
      </span>
      <Money amount={amount} currency={currency} className="balance-box-amount" />
    </span>
  );
}
