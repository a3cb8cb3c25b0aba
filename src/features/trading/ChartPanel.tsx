/**
 * The hero of the trading screen: the chart with, at its top left, the pair button (logo, name,
 * payout) that opens the pair selector and the timeframe switch, and the live price. It shows
 * a skeleton while candles load, the server's reason when the subscription was refused, dims
 * everything while the feed reconnects, draws a dashed entry line for each open order on this
 * pair, and gives screen readers a text alternative (last price and change). The change is
 * the 24-hour change (issue 26: the live price against the server's price 24 hours ago, labelled
 * "24h"; "since" a time when the pair has less history); a change that rounds to 0.00 % is grey
 * with no triangle (never a "-0.00 %" in red).
 *
 * The chart itself (CandleChart with lightweight-charts, ~60 KB gzip) is a chunk of its own,
 * loaded when the panel first renders: the pair, the price and the rest of the page do not wait
 * for it (nor does the trading page's chunk carry it), the skeleton holds its place meanwhile.
 * The chart is created once the first history has come (or the subscription failed), under the
 * skeleton until then, and stays from then on: it is drawn once, with its candles, instead of
 * empty first and again, resized, when they arrive.
 */
import { lazy, startTransition, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useSelector } from '@xstate/react';
import type { Pair } from '../../../contract/market';
import { TIMEFRAMES, TIMEFRAME_SECONDS, type Timeframe } from '../../../contract/user';
import { chartSummary } from '../../../machines/chart/chart.machine';
import { selectCurrentPair } from '../../../machines/pairs/pairs.machine';
import { EmptyState, Icon, PriceText, SegmentedControl, Skeleton } from '../../components';
import { useFormat, useT } from '../../i18n';
import { pairDisplayName } from '../../i18n/pair-name';
import { useConnectionState, useModalControls } from '../../shared/hooks';
import type { EntryLine } from './CandleChart';
import { useChartActor, useOrdersActor, usePairsActor } from './hooks';
import { MODAL_IDS } from '../../shared/modals';
import { logoSrc } from './pair-logo';
import './market-facts.css';
import { ChartLegend, ChartTools, DrawingHint, useChartSetup } from './chart/ChartTools';

const loadChart = () => import('./CandleChart');
const CandleChart = lazy(() => loadChart().then((m) => ({ default: m.CandleChart })));

function ChartSkeleton() {
  return (
    <div className="chart-overlay chart-skeleton" aria-hidden="true">
      <Skeleton width="100%" height="100%" />
    </div>
  );
}

export function PairButton({ pair, compact = false }: { pair: Pair | null; compact?: boolean }) {
  const t = useT();
  const format = useFormat();
  const modals = useModalControls();
  const payout = pair ? format.percent(pair.payout_rate) : '';
  return (
    <button
      type="button"
      className="pair-button"
      aria-haspopup="dialog"
      aria-label={pair ? t('trading.pair_button', { pair: pairDisplayName(t, pair), payout }) : t('trading.choose_pair')}
      onClick={() => modals.open(MODAL_IDS.pairSelector)}
      data-compact={compact || undefined}
    >
      {pair ? (
        <>
          <img className="pair-logo" src={logoSrc(pair)} alt="" width={24} height={24} />
          <span className="pair-button-name">{pairDisplayName(t, pair)}</span>
          <span className="pair-button-payout tabular">{payout}</span>
        </>
      ) : (
        <span className="pair-button-name">{t('trading.choose_pair')}</span>
      )}
      <Icon name="chevron" size={16} />
    </button>
  );
}

export function TimeframeSwitch({ pair, value }: { pair: Pair | null; value: Timeframe | null }) {
  const t = useT();
  const pairs = usePairsActor();
  const offered = TIMEFRAMES.filter((tf) => !pair || pair.timeframes.includes(tf));
  return (
    <SegmentedControl<Timeframe>
      className="timeframe-switch"
      label={t('trading.timeframe')}
      size="sm"
      options={offered.map((tf) => ({ value: tf, label: t(`trading.timeframes.${tf}`) }))}
      value={value ?? offered[0] ?? '1m'}
      disabled={!pair}
      onChange={(timeframe) => pairs.send({ type: 'pairs.timeframeSelected', timeframe })}
    />
  );
}

/** The direction of a change as it is shown (a percent with 2 decimals): what rounds to 0.00 % is flat. */
export function changeTrend(ratio: number): 'up' | 'down' | 'flat' {
  // Half away from zero, as Intl rounds the percent shown.
  const hundredths = Math.sign(ratio) * Math.round(Math.abs(ratio) * 10_000);
  return hundredths > 0 ? 'up' : hundredths < 0 ? 'down' : 'flat';
}

/** "14:05" for a time today, "23.11 14:05" for an earlier day (the first candle shown). */
function sinceText(ms: number, dateTime: (value: number, options?: { format?: string }) => string): string {
  const today = new Date();
  const d = new Date(ms);
  const sameDay = d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate();
  return dateTime(ms, { format: sameDay ? 'HH:mm' : 'DD.MM HH:mm' });
}

export function ChartPanel() {
  const t = useT();
  const format = useFormat();
  const pairs = usePairsActor();
  const chart = useChartActor();
  const orders = useOrdersActor();
  const connection = useConnectionState();

  const pair = useSelector(pairs, (s) => selectCurrentPair(s.context));
  const timeframe = useSelector(pairs, (s) => s.context.currentTimeframe);
  const rate = useSelector(pairs, (s) => (s.context.currentPair ? s.context.rates[s.context.currentPair] : undefined));
  const dayBase = useSelector(pairs, (s) => (s.context.currentPair ? s.context.dayBases[s.context.currentPair] : undefined));
  const status = useSelector(chart, (s) => s.value);
  const candles = useSelector(chart, (s) => s.context.candles);
  const seriesKey = useSelector(chart, (s) => `${s.context.pairCode ?? ''}:${s.context.timeframe ?? ''}`);
  const error = useSelector(chart, (s) => s.context.error);
  const open = useSelector(orders, (s) => s.context.open);
  const chartSetup = useChartSetup(pair?.pair_code ?? null);
  const pairCode = pair?.pair_code ?? null;
  const onPointPicked = useCallback(
    (point: { time: number; price: number }) => {
      if (pairCode) chartSetup.actor.send({ type: 'drawing.pointPicked', pairCode, point });
    },
    [chartSetup.actor, pairCode],
  );

  // The chart's code loads at once; the chart is created when there is something to draw.
  useEffect(() => void loadChart(), []);
  // Created in a transition: the socket message that brought the history is handled (and the
  // price, change and text drawn) in its own task, the chart's creation and fill in the next.
  const [chartShown, setChartShown] = useState(false);
  const chartWanted = status !== 'idle' && status !== 'loading';
  useEffect(() => {
    if (chartWanted && !chartShown) startTransition(() => setChartShown(true));
  }, [chartWanted, chartShown]);

  const stale = status === 'stale' || connection === 'reconnecting' || connection === 'offline';
  const precision = pair?.precision ?? 5;
  const summary = chartSummary(candles);
  const lastPrice = rate ?? summary?.last;

  const lines = useMemo<EntryLine[]>(
    () =>
      open
        .filter((o) => o.pair_code === pair?.pair_code)
        .map((o) => ({
          id: o.order_id,
          price: o.open_price,
          direction: o.direction,
        })),
    [open, pair?.pair_code],
  );
  const formatPrice = useCallback((price: number) => format.price(price, precision), [format, precision]);

  // The 24-hour change: the live price against the price 24 h ago the server sends with the rates.
  const day = dayBase && lastPrice !== undefined && dayBase.price > 0 ? { ratio: lastPrice / dayBase.price - 1, change: lastPrice - dayBase.price } : null;
  const trend = day ? changeTrend(day.ratio) : 'flat';
  const percentText = day ? format.percent(trend === 'flat' ? 0 : day.ratio, 2) : '';
  const since = dayBase?.since !== undefined ? sinceText(dayBase.since, format.dateTime) : null;
  const period = since === null ? t('trading.change_24h') : t('trading.change_since', { time: since });
  const flatPrice = format.price(0, precision);
  const changeText = day ? format.price(Math.abs(day.change), precision) : '';

  const description =
    pair && summary
      ? day
        ? t('trading.chart_summary', {
            pair: pairDisplayName(t, pair),
            timeframe: timeframe ? t(`trading.timeframes.${timeframe}`) : '',
            price: format.price(lastPrice ?? summary.last, precision),
            change: changeText === flatPrice ? changeText : `${day.change >= 0 ? '+' : '−'}${changeText}`,
            percent: percentText,
            period: since === null ? t('trading.change_24h_period') : t('trading.change_since', { time: since }),
          })
        : t('trading.chart_summary_price', {
            pair: pairDisplayName(t, pair),
            timeframe: timeframe ? t(`trading.timeframes.${timeframe}`) : '',
            price: format.price(lastPrice ?? summary.last, precision),
          })
      : t('trading.chart_loading');

  return (
    <section className="chart-panel" aria-labelledby="chart-panel-title" data-state={String(status)} data-stale={stale || undefined}>
      <h2 id="chart-panel-title" className="visually-hidden">
        {t('trading.chart_title')}
      </h2>
      <div className="chart-toolbar">
        <PairButton pair={pair} />
        {pair?.simulated ? (
          <span className="simulated-chip" title={t('trading.simulated_title')}>
            {t('trading.simulated')}
          </span>
        ) : null}
        <TimeframeSwitch pair={pair} value={timeframe} />
        <div className="chart-price" aria-hidden={lastPrice === undefined || undefined}>
          {lastPrice !== undefined ? <PriceText value={lastPrice} precision={precision} stale={stale} showDirection /> : <Skeleton width={88} height={20} />}
          {day ? (
            <span className="chart-change" data-trend={trend} title={since === null ? t('trading.change_24h_title') : t('trading.change_since_title', { time: since })}>
              <span className={`chart-change-value tabular ${trend === 'up' ? 'text-gain' : trend === 'down' ? 'text-loss' : 'text-neutral'}`}>
                {trend === 'up' ? '▲ ' : trend === 'down' ? '▼ ' : null}
                {percentText}
              </span>
              <span className="chart-change-since">{period}</span>
            </span>
          ) : null}
        </div>
      </div>
      <ChartTools pairCode={pairCode} disabled={!pair} />
      <p className="visually-hidden" data-testid="chart-text">
        {description}
      </p>
      <div className="chart-body">
        {chartShown ? (
          <Suspense fallback={<ChartSkeleton />}>
            <CandleChart
              className="chart-canvas"
              seriesKey={seriesKey}
              candles={candles}
              precision={precision}
              formatPrice={formatPrice}
              lines={lines}
              seconds={timeframe !== null && TIMEFRAME_SECONDS[timeframe] < 60}
              chartType={chartSetup.setup.type}
              studies={chartSetup.setup.studies}
              drawings={chartSetup.setup.drawings}
              pendingPoint={chartSetup.pending}
              onPointPicked={chartSetup.placing ? onPointPicked : null}
            />
          </Suspense>
        ) : null}
        <ChartLegend pairCode={pairCode} precision={precision} />
        <DrawingHint pairCode={pairCode} lastPrice={lastPrice} />
        {status === 'loading' || status === 'idle' ? <ChartSkeleton /> : null}
        {status === 'failed' ? (
          <div className="chart-overlay">
            <EmptyState icon="warning" title={t('trading.chart_failed')} hint={error ?? t('trading.chart_failed_hint')} compact />
          </div>
        ) : null}
        {pair?.quotes === 'delayed' ? (
          <p className="quotes-delayed-note" role="status">
            <Icon name="clock" size={14} />
            {t('trading.quotes_delayed')}
          </p>
        ) : null}
        {stale && status !== 'failed' ? (
          <p className="chart-stale-note" role="status">
            <span className="chart-stale-dot" aria-hidden="true" />
            {t('trading.chart_stale')}
          </p>
        ) : null}
      </div>
    </section>
  );
}
