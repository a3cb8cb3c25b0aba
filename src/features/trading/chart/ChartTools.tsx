/**
 * The chart's tools (issue 16), above the chart: the chart type menu, the indicators menu, the
 * horizontal and trend line tools and the chart actions slot (ChartActions.tsx); over the
 * chart, the legend: every indicator with its name and periods, an edit panel (periods and
 * colour) and a remove button, and every drawing with a remove button; and, while a drawing
 * tool is active, a hint with Cancel (and "At the current price" for a horizontal line, which
 * also works from the keyboard). Escape cancels the tool.
 *
 * State lives in the chart setup machine (machines/chart-setup): this file only sends its
 * events for the pair on screen and selects that pair's setup.
 */
import { memo, useEffect, useId, useState, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { CHART_TYPES, MAX_DRAWINGS, MAX_PERIOD, MAX_STUDIES, MIN_PERIOD, STUDY_KINDS, type ChartType, type Drawing, type Study } from '../../../../contract/chart';
import { setupOf, STUDY_COLORS, type DrawingTool } from '../../../../machines/chart-setup/chart-setup.machine';
import { Button, Dropdown, Icon, IconButton, Menu, cx } from '../../../components';
import { useFormat, useT } from '../../../i18n';
import { useChild } from '../../../shared/runtime';
import { ChartActions } from './ChartActions';
import './chart-tools.css';

export function useChartSetupActor() {
  const ref = useChild('chartSetup');
  if (!ref) throw new Error('chartSetup actor missing');
  return ref;
}

const EMPTY_PAIR = '';

/** The pair's setup and the drawing state, for the chart and the tools. */
export function useChartSetup(pairCode: string | null) {
  const actor = useChartSetupActor();
  const setup = useSelector(actor, (s) => setupOf(s.context.setups, pairCode));
  const placing = useSelector(actor, (s) => {
    const value = s.value;
    return typeof value === 'object' && 'loggedIn' in value && value.loggedIn !== 'viewing' ? (value.loggedIn as 'placingHorizontal' | 'placingTrendStart' | 'placingTrendEnd') : null;
  });
  const pending = useSelector(actor, (s) => (s.context.pending && s.context.pending.pairCode === pairCode ? s.context.pending.point : null));
  return { actor, setup, placing, pending, pairCode: pairCode ?? EMPTY_PAIR };
}

/** "SMA 20", "BB 20, 2", "MACD 12, 26, 9". */
export function studyLabel(study: Study, t: ReturnType<typeof useT>, number: (n: number) => string): string {
  const short = t(`trading.chart_tools.short.${study.kind}`);
  switch (study.kind) {
    case 'bollinger':
      return `${short} ${study.period}, ${number(study.deviations)}`;
    case 'macd':
      return `${short} ${study.fast}, ${study.slow}, ${study.signal}`;
    default:
      return `${short} ${study.period}`;
  }
}

/** Memoised (like the legend and the hint): the chart panel renders on every tick, these only when their pair's setup changes. */
export const ChartTools = memo(function ChartTools({ pairCode, disabled }: { pairCode: string | null; disabled?: boolean }) {
  const t = useT();
  const { actor, setup, placing } = useChartSetup(pairCode);
  const pair = pairCode ?? EMPTY_PAIR;
  const studiesFull = setup.studies.length >= MAX_STUDIES;
  const drawingsFull = setup.drawings.length >= MAX_DRAWINGS;
  const tool: DrawingTool | null = placing === 'placingHorizontal' ? 'hline' : placing ? 'trend' : null;

  const choose = (next: DrawingTool) => {
    if (tool === next) actor.send({ type: 'drawing.cancelled' });
    else actor.send({ type: 'drawing.toolChosen', pairCode: pair, tool: next });
  };

  return (
    <div className="chart-tools" role="toolbar" aria-label={t('trading.chart_tools.toolbar')}>
      <Menu
        label={t('trading.chart_tools.type_menu')}
        trigger={
          <>
            <Icon name="chart" size={16} />
            {/* On phones only the icons show (the row fits 360 px); the label still names the button. */}
            <span className="chart-tools-label visually-hidden-tablet">{t(`trading.chart_tools.types.${setup.type}`)}</span>
            <Icon name="chevron" size={14} />
          </>
        }
        triggerClassName="chart-tool"
        items={CHART_TYPES.map((type: ChartType) => ({
          id: type,
          label: t(`trading.chart_tools.types.${type}`),
          checked: setup.type === type,
          onSelect: () => actor.send({ type: 'chart.typeChosen', pairCode: pair, chartType: type }),
        }))}
      />
      <Menu
        label={t('trading.chart_tools.studies_menu')}
        trigger={
          <>
            <Icon name="indicator" size={16} />
            <span className="chart-tools-label visually-hidden-tablet">{t('trading.chart_tools.studies_menu')}</span>
            {setup.studies.length ? <span className="chart-tools-count tabular">{setup.studies.length}</span> : null}
            <Icon name="chevron" size={14} />
          </>
        }
        triggerClassName="chart-tool"
        items={STUDY_KINDS.map((kind) => ({
          id: kind,
          label: studiesFull ? `${t(`trading.chart_tools.names.${kind}`)} — ${t('trading.chart_tools.studies_full', { max: MAX_STUDIES })}` : t(`trading.chart_tools.names.${kind}`),
          disabled: studiesFull || disabled,
          onSelect: () => actor.send({ type: 'study.added', pairCode: pair, kind }),
        }))}
      />
      <span className="chart-tools-sep" aria-hidden="true" />
      <IconButton
        className="chart-tool chart-tool-icon"
        size="sm"
        icon="hline"
        label={drawingsFull && tool !== 'hline' ? `${t('trading.chart_tools.tool_hline')} — ${t('trading.chart_tools.drawings_full', { max: MAX_DRAWINGS })}` : t('trading.chart_tools.tool_hline')}
        pressed={tool === 'hline'}
        disabled={disabled || (drawingsFull && tool !== 'hline')}
        onClick={() => choose('hline')}
      />
      <IconButton
        className="chart-tool chart-tool-icon"
        size="sm"
        icon="trendline"
        label={drawingsFull && tool !== 'trend' ? `${t('trading.chart_tools.tool_trend')} — ${t('trading.chart_tools.drawings_full', { max: MAX_DRAWINGS })}` : t('trading.chart_tools.tool_trend')}
        pressed={tool === 'trend'}
        disabled={disabled || (drawingsFull && tool !== 'trend')}
        onClick={() => choose('trend')}
      />
      {/* The place for more chart actions (price alerts): see ChartActions.tsx. */}
      <ChartActions pairCode={pairCode} />
    </div>
  );
});

/** While a drawing tool is active: what to do next, Cancel, and the keyboard way for a horizontal line. */
export const DrawingHint = memo(function DrawingHint({ pairCode, lastPrice }: { pairCode: string | null; lastPrice: number | undefined }) {
  const t = useT();
  const { actor, placing } = useChartSetup(pairCode);
  useEffect(() => {
    if (!placing) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') actor.send({ type: 'drawing.cancelled' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [placing, actor]);
  if (!placing || !pairCode) return null;
  const hint = placing === 'placingHorizontal' ? 'hint_hline' : placing === 'placingTrendStart' ? 'hint_trend_start' : 'hint_trend_end';
  return (
    <div className="chart-drawing-hint" role="status">
      <span>{t(`trading.chart_tools.${hint}`)}</span>
      {placing === 'placingHorizontal' && lastPrice !== undefined ? (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => actor.send({ type: 'drawing.pointPicked', pairCode, point: { time: Math.floor(Date.now() / 1000), price: lastPrice } })}
        >
          {t('trading.chart_tools.at_price')}
        </Button>
      ) : null}
      <Button size="sm" variant="ghost" onClick={() => actor.send({ type: 'drawing.cancelled' })}>
        {t('common.cancel')}
      </Button>
    </div>
  );
});

export const ChartLegend = memo(function ChartLegend({ pairCode, precision }: { pairCode: string | null; precision: number }) {
  const t = useT();
  const format = useFormat();
  const { actor, setup } = useChartSetup(pairCode);
  if (!pairCode || (setup.studies.length === 0 && setup.drawings.length === 0)) return null;
  const number = (n: number) => format.number(n);
  const drawingName = (d: Drawing, i: number) =>
    d.kind === 'hline' ? t('trading.chart_tools.hline_name', { price: format.price(d.price, precision) }) : t('trading.chart_tools.trend_name', { n: i + 1 });
  return (
    <ul className="chart-legend" aria-label={t('trading.chart_tools.legend')}>
      {setup.studies.map((study) => {
        const name = studyLabel(study, t, number);
        return (
          <li key={study.id} className="chart-legend-item">
            <span className="chart-legend-swatch" style={{ background: study.color }} aria-hidden="true" />
            <span className="chart-legend-name tabular">{name}</span>
            <StudyEditor pairCode={pairCode} study={study} name={name} onSave={(next) => actor.send({ type: 'study.updated', pairCode, study: next })} />
            <IconButton className="chart-legend-button" size="sm" icon="close" label={t('trading.chart_tools.remove', { name })} onClick={() => actor.send({ type: 'study.removed', pairCode, id: study.id })} />
          </li>
        );
      })}
      {setup.drawings.map((d, i) => {
        const name = drawingName(d, setup.drawings.filter((x, k) => x.kind === 'trend' && k < i).length);
        return (
          <li key={d.id} className="chart-legend-item chart-legend-drawing">
            <Icon name={d.kind === 'hline' ? 'hline' : 'trendline'} size={14} />
            <span className="chart-legend-name tabular">{name}</span>
            <IconButton className="chart-legend-button" size="sm" icon="close" label={t('trading.chart_tools.remove', { name })} onClick={() => actor.send({ type: 'drawing.removed', pairCode, id: d.id })} />
          </li>
        );
      })}
    </ul>
  );
});

type PeriodField = 'period' | 'fast' | 'slow' | 'signal';

function periodFields(study: Study): PeriodField[] {
  return study.kind === 'macd' ? ['fast', 'slow', 'signal'] : ['period'];
}

function StudyEditor({ pairCode, study, name, onSave }: { pairCode: string; study: Study; name: string; onSave: (study: Study) => void }) {
  const t = useT();
  const format = useFormat();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [color, setColor] = useState(study.color);
  const [signalColor, setSignalColor] = useState(study.kind === 'macd' ? study.signalColor : '');
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    const initial: Record<string, string> = {};
    for (const f of periodFields(study)) initial[f] = String((study as unknown as Record<PeriodField, number>)[f]);
    if (study.kind === 'bollinger') initial.deviations = String(study.deviations);
    setValues(initial);
    setColor(study.color);
    setSignalColor(study.kind === 'macd' ? study.signalColor : '');
    setError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const numbers: Record<string, number> = {};
    for (const f of periodFields(study)) {
      const n = Number(values[f]);
      if (!Number.isInteger(n) || n < MIN_PERIOD || n > MAX_PERIOD) {
        setError(t('trading.chart_tools.invalid_period', { min: MIN_PERIOD, max: MAX_PERIOD }));
        return;
      }
      numbers[f] = n;
    }
    let next: Study;
    if (study.kind === 'macd') {
      if (numbers.fast >= numbers.slow) {
        setError(t('trading.chart_tools.invalid_macd'));
        return;
      }
      next = { ...study, fast: numbers.fast, slow: numbers.slow, signal: numbers.signal, color, signalColor };
    } else if (study.kind === 'bollinger') {
      const deviations = Number(String(values.deviations).replace(',', '.'));
      if (!Number.isFinite(deviations) || deviations < 0.5 || deviations > 5) {
        setError(t('trading.chart_tools.invalid_deviations', { min: format.number(0.5), max: format.number(5) }));
        return;
      }
      next = { ...study, period: numbers.period, deviations, color };
    } else {
      next = { ...study, period: numbers.period, color };
    }
    onSave(next);
    setOpen(false);
  };

  return (
    <Dropdown
      open={open}
      onOpenChange={(next) => {
        if (next) reset();
        setOpen(next);
      }}
      trigger={<Icon name="settings" size={14} />}
      triggerLabel={t('trading.chart_tools.edit', { name })}
      triggerClassName="btn btn-ghost btn-sm btn-icon chart-legend-button"
      label={t('trading.chart_tools.editor_title', { name })}
      align="start"
      panelClassName="chart-study-editor"
    >
      <form onSubmit={submit} noValidate data-pair={pairCode}>
        <p className="chart-study-editor-title">{t(`trading.chart_tools.names.${study.kind}`)}</p>
        <div className="chart-study-editor-fields">
          {periodFields(study).map((f) => (
            <label key={f} className="chart-study-field">
              <span>{t(`trading.chart_tools.fields.${f}`)}</span>
              <input
                className="field-input"
                inputMode="numeric"
                value={values[f] ?? ''}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(e) => setValues({ ...values, [f]: e.target.value })}
              />
            </label>
          ))}
          {study.kind === 'bollinger' ? (
            <label className="chart-study-field">
              <span>{t('trading.chart_tools.fields.deviations')}</span>
              <input className="field-input" inputMode="decimal" value={values.deviations ?? ''} onChange={(e) => setValues({ ...values, deviations: e.target.value })} />
            </label>
          ) : null}
        </div>
        <ColorChoice label={t('trading.chart_tools.fields.color')} value={color} onChange={setColor} />
        {study.kind === 'macd' ? <ColorChoice label={t('trading.chart_tools.fields.signal_color')} value={signalColor} onChange={setSignalColor} /> : null}
        {error ? (
          <p id={`${id}-error`} className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="chart-study-editor-actions">
          <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
            {t('common.cancel')}
          </Button>
          <Button size="sm" variant="primary" type="submit">
            {t('trading.chart_tools.apply')}
          </Button>
        </div>
      </form>
    </Dropdown>
  );
}

function ColorChoice({ label, value, onChange }: { label: string; value: string; onChange: (color: string) => void }) {
  const t = useT();
  const name = useId();
  return (
    <fieldset className="chart-colors">
      <legend>{label}</legend>
      {STUDY_COLORS.map((c, i) => (
        <input
          key={c}
          type="radio"
          className={cx('chart-color', value === c && 'chart-color-active')}
          style={{ background: c }}
          name={name}
          value={c}
          checked={value === c}
          onChange={() => onChange(c)}
          aria-label={t(`trading.chart_tools.colors.${i}`)}
        />
      ))}
    </fieldset>
  );
}
