/**
 * The bet: amount with - / + and quick presets, bet time with - / + and a seconds / minutes
 * switch, the account it trades on (real money unmistakable: its own colour, a wallet icon and
 * the word), the payout and what a win returns (before the click), and the two large Up / Down
 * buttons. All of it lives in the orderPlacement actor; the click sends what the session, the
 * pairs and the balance actors know at that moment.
 *
 * One slot between the fields and the buttons holds either the payout / return / profit or,
 * when the bet would be refused, the reason (an amount over the maximum, under the minimum or
 * over the balance never shows a return): its height is reserved, so a message never moves the
 * Up / Down buttons. The field concerned is marked invalid and carries the same text for
 * assistive tech. A real account without enough money gets a Deposit button there. When the
 * account currency changes, the amount starts again at that currency's first preset. The
 * pressed button shows a spinner while the order is placed.
 */
import { useId, useLayoutEffect, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { findCurrency, usdRateFromPrices } from '../../../contract/currencies';
import type { OrderDirection } from '../../../contract/orders';
import { selectBalance } from '../../../machines/balance/balance.machine';
import { selectCurrentPair } from '../../../machines/pairs/pairs.machine';
import type { ExpiryUnit, TradeSetup } from '../../../machines/order-placement/order-placement.machine';
import { stakePresets, betReturn, expiryFieldProblem, presetDecimals, shownProblem } from '../../../machines/order-placement/bet-rules';
import { Button, Icon, IconButton, Money, SegmentedControl, TextField } from '../../components';
import { useFormat, useT } from '../../i18n';
import { useBalanceActor, useSessionActor } from '../../shared/runtime';
import { useModalControls } from '../../shared/hooks';
import { MODAL_IDS } from '../../shared/modals';
import { useOrderPlacementActor, usePairsActor } from './hooks';
import { useShortcuts } from './keyboard';

/**
 * `compact`: the phone's trade bar (issue 26): no presets, the unit as a toggle in the time
 * field, the account and the payout on one line, and `ordersButton` beside Up and Down.
 */
export function BetPanel({ compact = false, ordersButton }: { compact?: boolean; ordersButton?: ReactNode }) {
  const t = useT();
  const format = useFormat();
  const placement = useOrderPlacementActor();
  const pairs = usePairsActor();
  const balance = useBalanceActor();
  const session = useSessionActor();
  const modals = useModalControls();
  const summaryId = useId();
  const problemId = useId();

  const bet = useSelector(placement, (s) => s.context);
  const amount = bet.amount;
  const amountCurrency = useSelector(placement, (s) => s.context.currency);
  const { expiryValue, expiryUnit } = bet;
  const placingDirection = useSelector(placement, (s) => (s.matches('placing') ? s.context.direction : null));
  const problem = bet.problem;
  const pair = useSelector(pairs, (s) => selectCurrentPair(s.context));
  const currency = useSelector(balance, (s) => s.context.selectedCurrency);
  const balanceType = useSelector(balance, (s) => s.context.balanceType);
  const available = useSelector(balance, (s) => selectBalance(s.context));
  const loggedIn = useSelector(session, (s) => s.hasTag('authenticated'));
  // The account currency per USD at the live prices, to its power of ten: all the presets read
  // (bet-rules.ts stakePresets), so a price tick does not re-render the panel.
  const perUsd = useSelector(pairs, (s) => {
    const rate = usdRateFromPrices(s.context.pairs, s.context.rates, currency)?.per_usd;
    return rate !== undefined && rate > 0 ? 10 ** Math.round(Math.log10(rate)) : undefined;
  });

  // An amount belongs to its currency: another account currency starts at its own first preset.
  useLayoutEffect(() => {
    if (currency && amountCurrency !== currency) {
      placement.send({ type: 'orderPlacement.currencyChanged', currency, perUsd });
    }
  }, [currency, amountCurrency, placement, perUsd]);

  const real = balanceType === 'RealBalance';
  const currencyInfo = findCurrency(currency);
  // Crypto amounts are written with their code, which the field's label already gives.
  const symbol = currencyInfo?.kind === 'crypto' ? null : (currencyInfo?.symbol ?? currency);
  // The rules are the machine's (bet-rules.ts): which reason the slot shows, the return of a win.
  const shown = shownProblem(bet, currency, available);
  const amountError = shown?.field === 'amount' ? t(shown.key, shown.params) : undefined;
  const expiryIssue = expiryFieldProblem(bet);
  const expiryError = expiryIssue ? t(expiryIssue.key, expiryIssue.params) : undefined;
  const shownInField = shown?.field === 'amount' || shown?.field === 'expiry';
  const needsDeposit = real && shown?.key === 'trading.insufficient_balance';
  const win = betReturn(bet, currency, available, pair ? pair.payout_rate : null);
  const presets = stakePresets(currency, perUsd);
  const placing = placingDirection !== null;

  const setAmount = (value: string) => placement.send({ type: 'orderPlacement.amountChanged', amount: value });
  const setExpiry = (value: number, unit: ExpiryUnit) => placement.send({ type: 'orderPlacement.expiryChanged', value, unit });
  const stepAmountBy = (step: 1 | -1) => placement.send({ type: 'orderPlacement.amountStepped', step });
  const stepTimeBy = (step: 1 | -1) => placement.send({ type: 'orderPlacement.expiryStepped', step });
  const setUnit = (unit: ExpiryUnit) => placement.send({ type: 'orderPlacement.expiryUnitChanged', unit });
  const place = (direction: OrderDirection) => {
    const setup: TradeSetup = {
      loggedIn,
      pair: pair ? { pairCode: pair.pair_code, pairHumanCode: pair.pair_human_code } : null,
      currency,
      balanceType,
      available,
    };
    placement.send({ type: 'orderPlacement.placeRequested', direction, setup });
  };

  // Keyboard trading (keyboard.tsx): each key does what its button does, nothing more.
  useShortcuts((action) => {
    if (action === 'up' || action === 'down') {
      if (!placing) place(action);
    } else if (action === 'amountUp' || action === 'amountDown') stepAmountBy(action === 'amountUp' ? 1 : -1);
    else if (action === 'timeUp' || action === 'timeDown') stepTimeBy(action === 'timeUp' ? 1 : -1);
  });

  const timeText = expiryUnit === 'seconds' ? t('trading.duration_seconds', { count: expiryValue }) : t('trading.duration_minutes', { count: expiryValue });
  const accountWord = real ? t('nav.real_account') : t('nav.demo_account');

  return (
    <section className="bet-panel" data-compact={compact || undefined} data-account={real ? 'real' : 'demo'} aria-labelledby="bet-panel-title">
      <h2 id="bet-panel-title" className="visually-hidden">
        {t('trading.bet_panel')}
      </h2>
      <div className="bet-account" data-type={balanceType}>
        <span className="bet-account-type">
          <Icon name={real ? 'wallet' : 'shield'} size={16} />
          {accountWord}
        </span>
        <Money amount={available} currency={currency} className="bet-account-amount" />
      </div>

      <div className="bet-fields">
        <div className="bet-field bet-field-amount">
          <TextField
            className="stepper"
            inputClassName="tabular stepper-input"
            label={t('trading.amount_label', { currency })}
            value={amount}
            inputMode="decimal"
            autoComplete="off"
            maxLength={24}
            leading={
              <>
                <IconButton icon="minus" className="stepper-button" label={t('trading.amount_decrease')} onClick={() => stepAmountBy(-1)} />
                {symbol ? <span className="stepper-symbol">{symbol}</span> : null}
              </>
            }
            trailing={<IconButton icon="plus" className="stepper-button" label={t('trading.amount_increase')} onClick={() => stepAmountBy(1)} />}
            error={amountError}
            onChange={(e) => setAmount(e.currentTarget.value)}
            onBlur={() => placement.send({ type: 'orderPlacement.amountLeft' })}
          />
          {!compact && presets.length ? (
            <div className="bet-presets" role="group" aria-label={t('trading.presets')}>
              {presets.map((preset) => {
                const money = format.money(Number(preset), currency, { decimals: presetDecimals(preset) });
                // Crypto presets are tiny numbers: the digits alone fit the button (the label says the currency).
                const crypto = currencyInfo?.kind === 'crypto';
                return (
                  <button
                    key={preset}
                    type="button"
                    className="bet-preset tabular"
                    aria-pressed={preset === amount}
                    aria-label={crypto ? money : undefined}
                    onClick={() => setAmount(preset)}
                  >
                    {crypto ? format.number(Number(preset), presetDecimals(preset)) : money}
                  </button>
                );
              })}
            </div>
          ) : null}
        </div>

        <div className="bet-field bet-field-time">
          <TextField
            className="stepper"
            inputClassName="tabular stepper-input"
            label={t('trading.bet_time')}
            value={expiryValue > 0 ? String(expiryValue) : ''}
            inputMode="numeric"
            autoComplete="off"
            maxLength={5}
            leading={
              <IconButton icon="minus" className="stepper-button" label={t('trading.time_decrease')} onClick={() => stepTimeBy(-1)} />
            }
            trailing={
              <>
                {compact ? (
                  <button
                    type="button"
                    className="stepper-unit stepper-unit-toggle"
                    aria-label={expiryUnit === 'seconds' ? t('trading.switch_to_minutes') : t('trading.switch_to_seconds')}
                    onClick={() => setUnit(expiryUnit === 'seconds' ? 'minutes' : 'seconds')}
                  >
                    {expiryUnit === 'seconds' ? t('trading.unit_seconds_short') : t('trading.unit_minutes_short')}
                  </button>
                ) : (
                  <span className="stepper-unit">{expiryUnit === 'seconds' ? t('trading.unit_seconds_short') : t('trading.unit_minutes_short')}</span>
                )}
                <IconButton icon="plus" className="stepper-button" label={t('trading.time_increase')} onClick={() => stepTimeBy(1)} />
              </>
            }
            error={expiryError}
            onChange={(e) => {
              const digits = e.currentTarget.value.replace(/\D/g, '');
              setExpiry(digits === '' ? 0 : Number(digits), expiryUnit);
            }}
          />
          {compact ? null : (
            <SegmentedControl<ExpiryUnit>
              className="bet-unit"
              label={t('trading.time_unit')}
              size="sm"
              fill
              options={[
                { value: 'seconds', label: t('trading.unit_seconds') },
                { value: 'minutes', label: t('trading.unit_minutes') },
              ]}
              value={expiryUnit}
              onChange={setUnit}
            />
          )}
        </div>
      </div>

      <div className="bet-outcome" data-problem={shown ? shown.field : undefined}>
        {shown ? (
          <div className="bet-problem">
            {/* A field's reason is read with its field; the rest is announced here. */}
            <p id={problemId} className="bet-problem-text" role={shownInField ? undefined : problem ? 'alert' : 'status'} aria-hidden={shownInField || undefined}>
              <Icon name="error" size={16} />
              <span>{t(shown.key, shown.params)}</span>
            </p>
            {needsDeposit ? (
              <Button variant="primary" size="sm" icon="deposit" className="bet-deposit" onClick={() => modals.open(MODAL_IDS.deposit)}>
                {t('nav.deposit')}
              </Button>
            ) : null}
          </div>
        ) : null}
        {/* Kept in place (invisible) under a message, so the slot keeps its height. */}
        <dl className="bet-summary" id={summaryId} data-concealed={shown ? true : undefined}>
          <div>
            <dt>{t('trading.payout')}</dt>
            <dd className="tabular">{pair ? format.percent(pair.payout_rate) : '—'}</dd>
          </div>
          <div>
            <dt>{t('trading.potential_return')}</dt>
            <dd>{win ? <Money amount={win.payout} currency={currency} /> : '—'}</dd>
          </div>
          <div>
            <dt>{t('trading.potential_profit')}</dt>
            <dd>{win ? <Money amount={win.profit} currency={currency} signed tone="gain" /> : '—'}</dd>
          </div>
          <div className="visually-hidden">
            <dt>{t('trading.bet_account')}</dt>
            <dd>{accountWord}</dd>
          </div>
          <div className="visually-hidden">
            <dt>{t('trading.bet_time')}</dt>
            <dd>{timeText}</dd>
          </div>
        </dl>
      </div>

      <div className="bet-buttons">
        <Button
          variant="up"
          size="lg"
          fullWidth
          loading={placingDirection === 'up'}
          loadingLabel={t('trading.placing')}
          disabled={placing}
          aria-describedby={shown ? problemId : summaryId}
          onClick={() => place('up')}
        >
          {t('trading.up')}
        </Button>
        <Button
          variant="down"
          size="lg"
          fullWidth
          loading={placingDirection === 'down'}
          loadingLabel={t('trading.placing')}
          disabled={placing}
          aria-describedby={shown ? problemId : summaryId}
          onClick={() => place('down')}
        >
          {t('trading.down')}
        </Button>
        {ordersButton}
      </div>
    </section>
  );
}
