/**
 * The trader's chart setup per pair (issue 16): the chart type, the studies with their periods
 * and colours, and the drawings. Saved in the user's front settings under `chart_setups`
 * (pair code -> setup) and restored on any device. Sizes are bounded: at most MAX_STUDIES
 * studies and MAX_DRAWINGS drawings per pair, at most MAX_CHART_SETUPS pairs (the least recently
 * changed pair's setup is dropped first), as many in one update.
 *
 * An update (`chart_setups` in PATCH /api/v2/profile/front-settings) carries only the pairs
 * that changed: a setup replaces that pair's, null removes it (back to the defaults). The SPA
 * and the server merge with the same function, `mergeChartSetups`.
 */
import * as v from 'valibot';

export const CHART_TYPES = ['candles', 'bars', 'line', 'area', 'heikin_ashi'] as const;
export const ChartTypeSchema = v.picklist(CHART_TYPES, 'Unknown chart type');
export type ChartType = v.InferOutput<typeof ChartTypeSchema>;

export const STUDY_KINDS = ['sma', 'ema', 'bollinger', 'rsi', 'macd'] as const;
export type StudyKind = (typeof STUDY_KINDS)[number];

export const MAX_STUDIES = 6;
export const MAX_DRAWINGS = 20;
export const MAX_CHART_SETUPS = 40;
export const MIN_PERIOD = 2;
export const MAX_PERIOD = 200;

const IdSchema = v.pipe(v.string(), v.regex(/^[a-z0-9]{1,16}$/, 'Invalid id'));
const ColorSchema = v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'Colour must be #RRGGBB'));
const PeriodSchema = v.pipe(v.number(), v.integer('Period must be a whole number'), v.minValue(MIN_PERIOD, 'Period too short'), v.maxValue(MAX_PERIOD, 'Period too long'));
const PriceSchema = v.pipe(v.number(), v.finite(), v.minValue(0));
const TimeSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

export const StudySchema = v.variant('kind', [
  v.strictObject({ id: IdSchema, kind: v.literal('sma'), period: PeriodSchema, color: ColorSchema }),
  v.strictObject({ id: IdSchema, kind: v.literal('ema'), period: PeriodSchema, color: ColorSchema }),
  v.strictObject({
    id: IdSchema,
    kind: v.literal('bollinger'),
    period: PeriodSchema,
    /** Band width in standard deviations (population standard deviation, as Bollinger defines it). */
    deviations: v.pipe(v.number(), v.minValue(0.5), v.maxValue(5)),
    color: ColorSchema,
  }),
  v.strictObject({ id: IdSchema, kind: v.literal('rsi'), period: PeriodSchema, color: ColorSchema }),
  v.pipe(
    v.strictObject({ id: IdSchema, kind: v.literal('macd'), fast: PeriodSchema, slow: PeriodSchema, signal: PeriodSchema, color: ColorSchema, signalColor: ColorSchema }),
    v.check((s) => s.fast < s.slow, 'The fast period must be shorter than the slow one'),
  ),
]);
export type Study = v.InferOutput<typeof StudySchema>;

const PointSchema = v.strictObject({ time: TimeSchema, price: PriceSchema });
export type ChartPoint = v.InferOutput<typeof PointSchema>;

export const DrawingSchema = v.variant('kind', [
  v.strictObject({ id: IdSchema, kind: v.literal('hline'), price: PriceSchema }),
  v.strictObject({ id: IdSchema, kind: v.literal('trend'), from: PointSchema, to: PointSchema }),
]);
export type Drawing = v.InferOutput<typeof DrawingSchema>;

export const ChartSetupSchema = v.strictObject({
  type: ChartTypeSchema,
  studies: v.pipe(v.array(StudySchema), v.maxLength(MAX_STUDIES, `At most ${MAX_STUDIES} studies per pair`)),
  drawings: v.pipe(v.array(DrawingSchema), v.maxLength(MAX_DRAWINGS, `At most ${MAX_DRAWINGS} drawings per pair`)),
});
export type ChartSetup = v.InferOutput<typeof ChartSetupSchema>;

const SetupKeySchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,31}$/, 'Unknown pair code'));

/** What is stored and sent back: pair code -> setup. */
export const ChartSetupsSchema = v.pipe(
  v.record(SetupKeySchema, ChartSetupSchema),
  v.check((o) => Object.keys(o).length <= MAX_CHART_SETUPS, 'Too many chart setups'),
);
export type ChartSetups = v.InferOutput<typeof ChartSetupsSchema>;

/** An update: only the pairs that changed (null = back to the defaults). */
export const ChartSetupsUpdateSchema = v.pipe(
  v.record(SetupKeySchema, v.nullable(ChartSetupSchema)),
  v.check((o) => Object.keys(o).length >= 1 && Object.keys(o).length <= MAX_CHART_SETUPS, `One to ${MAX_CHART_SETUPS} pairs per update`),
);
export type ChartSetupsUpdate = v.InferOutput<typeof ChartSetupsUpdateSchema>;

export const DEFAULT_CHART_SETUP: ChartSetup = { type: 'candles', studies: [], drawings: [] };

/**
 * The stored setups with an update applied: a changed pair moves to the end (the most recently
 * changed), null removes it, and beyond MAX_CHART_SETUPS the oldest pairs go.
 */
export function mergeChartSetups(stored: ChartSetups | undefined, update: ChartSetupsUpdate): ChartSetups {
  const merged: ChartSetups = { ...stored };
  for (const [pair, setup] of Object.entries(update)) {
    delete merged[pair];
    if (setup) merged[pair] = setup;
  }
  const keys = Object.keys(merged);
  for (const key of keys.slice(0, Math.max(0, keys.length - MAX_CHART_SETUPS))) delete merged[key];
  return merged;
}

/** Two pending updates as one (the later pair's setup wins). */
export function mergeChartSetupsUpdates(a: ChartSetupsUpdate | undefined, b: ChartSetupsUpdate): ChartSetupsUpdate {
  const merged: ChartSetupsUpdate = { ...a };
  for (const [pair, setup] of Object.entries(b)) {
    delete merged[pair];
    merged[pair] = setup;
  }
  return merged;
}
