/**
 * The bet: amount with - / + and quick presets, bet time with - / + and a seconds / minutes
 * switch, the account it trades on, the payout and what a win returns (before the click), and
 * the two large Up / Down buttons. All of it lives in the orderPlacement actor; the click sends
 * what the session, the pairs and the balance actors know at that moment. A refused amount is
 * shown at the field (after the first blur, or at once after a refused click); the pressed
 * button shows a spinner while the order is placed.
 */
import { useId, useState } from 'react';
import { useSelector } from '@xstate/react';
import { findCurrency } from '../../../contract/currencies';
import type { OrderDirection } from '../../../contract/orders';
import { selectBalance } from '../../../machines/balance/balance.machine';
import { selectCurrentPair } from '../../../machines/pairs/pairs.machine';
import { stakeProblemKey, type ExpiryUnit, type TradeSetup } from '../../../machines/order-placement/order-placement.machine';
import { Button, IconButton, Money, SegmentedControl, TextField } from '../../components';
import { useFormat, useT } from '../../i18n';
import { useBalanceActor, useSessionActor } from '../../app/runtime';
import { amountPresets, convertExpiry, potentialReturn, stepAmount, stepExpiry } from './bet-steps';
import { useOrderPlacementActor, usePairsActor } from './hooks';

export function BetPanel({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const format = useFormat();
  const placement = useOrderPlacementActor();
  const pairs = usePairsActor();
  const balance = useBalanceActor();
  const session = useSessionActor();
  const summaryId = useId();

  const amount = useSelector(placement, (s) => s.context.amount);
  const expiryValue = useSelector(placement, (s) => s.context.expiryValue);
  const expiryUnit = useSelector(placement, (s) => s.context.expiryUnit);
  const placingDirection = useSelector(placement, (s) => (s.matches('placing') ? s.context.direction : null));
  const problem = useSelector(placement, (s) => s.context.problem);
  const pair = useSelector(pairs, (s) => selectCurrentPair(s.context));
  const currency = useSelector(balance, (s) => s.context.selectedCurrency);
  const balanceType = useSelector(balance, (s) => s.context.balanceType);
  const available = useSelector(balance, (s) => selectBalance(s.context));
  const loggedIn = useSelector(session, (s) => s.hasTag('authenticated'));
  const [touched, setTouched] = useState(false);

  const symbol = findCurrency(currency)?.symbol ?? currency;
  const liveProblem = touched ? stakeProblemKey(amount, currency, available) : null;
  const amountProblem = problem?.field === 'amount' ? problem : liveProblem;
  const expiryProblem = problem?.field === 'expiry' ? problem : null;
  const win = pair ? potentialReturn(amount, currency, pair.payout_rate) : null;
  const presets = amountPresets(currency);
  const placing = placingDirection !== null;

  const setAmount = (value: string) => placement.send({ type: 'orderPlacement.amountChanged', amount: value });
  const setExpiry = (value: number, unit: ExpiryUnit) => placement.send({ type: 'orderPlacement.expiryChanged', value, unit });
  const place = (direction: OrderDirection) => {
    const setup: TradeSetup = {
      loggedIn,
      pair: pair ? { pairCode: pair.pair_code, pairHumanCode: pair.pair_human_code } : null,
      currency,
      balanceType,
      available,
    };
    setTouched(true);
    placement.send({ type: 'orderPlacement.placeRequested', direction, setup });
  };

  const timeText = expiryUnit === 'seconds' ? t('trading.duration_seconds', { count: expiryValue }) : t('trading.duration_minutes', { count: expiryValue });

  return (
    <section className="bet-panel" data-compact={compact || undefined} aria-labelledby="bet-panel-title">
      <h2 id="bet-panel-title" className="visually-hidden">
        {t('trading.bet_panel')}
      </h2>
      <div className="bet-account" data-type={balanceType}>
        <span className="bet-account-type">{balanceType === 'DemoBalance' ? t('nav.demo_account') : t('nav.real_account')}</span>
        <Money amount={available} currency={currency} className="bet-account-amount" />
      </div>

      <div className="bet-fields">
        <div className="bet-field">
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
                <IconButton icon="minus" className="stepper-button" label={t('trading.amount_decrease')} onClick={() => setAmount(stepAmount(amount, currency, -1))} />
                <span className="stepper-symbol">{symbol}</span>
              </>
            }
            trailing={<IconButton icon="plus" className="stepper-button" label={t('trading.amount_increase')} onClick={() => setAmount(stepAmount(amount, currency, 1))} />}
            error={amountProblem ? t(amountProblem.key, amountProblem.params) : undefined}
            onChange={(e) => setAmount(e.currentTarget.value)}
            onBlur={() => setTouched(true)}
          />
          {!compact && presets.length ? (
            <div className="bet-presets" role="group" aria-label={t('trading.presets')}>
              {presets.map((preset) => (
                <button key={preset} type="button" className="bet-preset tabular" aria-pressed={preset === amount} onClick={() => setAmount(preset)}>
                  {format.money(Number(preset), currency, { decimals: findCurrency(currency)?.kind === 'crypto' ? undefined : 0 })}
                </button>
              ))}
            </div>
          ) : null}
        </div>

        <div className="bet-field">
          <TextField
            className="stepper"
            inputClassName="tabular stepper-input"
            label={t('trading.bet_time')}
            value={expiryValue > 0 ? String(expiryValue) : ''}
            inputMode="numeric"
            autoComplete="off"
            maxLength={5}
            leading={
              <IconButton icon="minus" className="stepper-button" label={t('trading.time_decrease')} onClick={() => setExpiry(stepExpiry(expiryValue, expiryUnit, -1), expiryUnit)} />
            }
            trailing={
              <>
                {compact ? (
                  <button
                    type="button"
                    className="stepper-unit stepper-unit-toggle"
                    aria-label={expiryUnit === 'seconds' ? t('trading.switch_to_minutes') : t('trading.switch_to_seconds')}
                    onClick={() => {
                      const unit: ExpiryUnit = expiryUnit === 'seconds' ? 'minutes' : 'seconds';
                      setExpiry(convertExpiry(expiryValue, expiryUnit, unit), unit);
                    }}
                  >
                    {expiryUnit === 'seconds' ? t('trading.unit_seconds_short') : t('trading.unit_minutes_short')}
                  </button>
                ) : (
                  <span className="stepper-unit">{expiryUnit === 'seconds' ? t('trading.unit_seconds_short') : t('trading.unit_minutes_short')}</span>
                )}
                <IconButton icon="plus" className="stepper-button" label={t('trading.time_increase')} onClick={() => setExpiry(stepExpiry(expiryValue, expiryUnit, 1), expiryUnit)} />
              </>
            }
            error={expiryProblem ? t(expiryProblem.key, expiryProblem.params) : undefined}
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
              onChange={(unit) => setExpiry(convertExpiry(expiryValue, expiryUnit, unit), unit)}
            />
          )}
        </div>
      </div>

      <dl className="bet-summary" id={summaryId}>
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
          <dt>{t('trading.bet_time')}</dt>
          <dd>{timeText}</dd>
        </div>
      </dl>

      <div className="bet-buttons">
        <Button
          variant="up"
          size="lg"
          fullWidth
          loading={placingDirection === 'up'}
          loadingLabel={t('trading.placing')}
          disabled={placing}
          aria-describedby={summaryId}
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
          aria-describedby={summaryId}
          onClick={() => place('down')}
        >
          {t('trading.down')}
        </Button>
      </div>
      {problem && (problem.field === 'session' || problem.field === 'pair') ? (
        <p className="bet-problem" role="alert">
          {t(problem.key, problem.params)}
        </p>
      ) : null}
    </section>
  );
}

