/**
 * The trader's chart setup per pair (issue 16): chart type, studies and drawings, and the
 * drawing tool in use.
 *
 * Lifecycle: long-lived, spawned by the app with systemId 'chartSetup' beside 'pairs' (which
 * owns the candles actor 'chart'). `chartSetup.sessionStarted {setups}` (the app, on login,
 * with the user's saved `front_settings.chart_setups`) restores the setups on any device;
 * `chartSetup.sessionEnded` (logout) forgets them. Every event that changes a pair's setup
 * names the pair (the view sends the pair on screen) and the changed setup is saved at once:
 * the parent hears `settings.changed {chart_setups: {[pair]: setup}}`, which the session
 * merges into the front settings (only the pairs named change, contract/chart.ts).
 *
 * Events: `chart.typeChosen {pairCode, chartType}`; `study.added {pairCode, kind}` (default
 * periods, a colour the pair's studies do not use yet; refused beyond MAX_STUDIES);
 * `study.updated {pairCode, study}` (a study with the same id, valid per the contract: periods
 * in range, MACD fast < slow, #RRGGBB colours; anything else is ignored); `study.removed
 * {pairCode, id}`; `drawing.removed {pairCode, id}`; `chart.setupReset {pairCode}` (back to the
 * defaults: the saved setup is removed).
 *
 * Drawing tools: `drawing.toolChosen {tool}` puts the machine in `placingHorizontal` or
 * `placingTrendStart` (not when the pair already has MAX_DRAWINGS); `drawing.pointPicked
 * {pairCode, point}` (a click or tap on the chart, as time and price) places a horizontal line
 * at once, or the first end of a trend line (`placingTrendEnd`, the point kept in `pending`)
 * and then the second; `drawing.cancelled` (Escape, the tool button again) drops the tool. A
 * second point on another pair than the first starts the trend line again there.
 */
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import * as v from 'valibot';
import {
  DEFAULT_CHART_SETUP,
  MAX_DRAWINGS,
  MAX_STUDIES,
  StudySchema,
  type ChartPoint,
  type ChartSetup,
  type ChartSetups,
  type ChartType,
  type Drawing,
  type Study,
  type StudyKind,
} from '../../contract/chart';
import type { SettingsPatch } from '../types';

export type DrawingTool = 'hline' | 'trend';

/** Colours offered for studies (readable on the dark and the light theme). */
export const STUDY_COLORS = ['#f5a623', '#4aa3ff', '#b36bff', '#26c6da', '#ff7043', '#9ccc65', '#ec407a', '#8d99ae'] as const;

export interface ChartSetupContext {
  setups: ChartSetups;
  /** The first end of a trend line being drawn, and its pair. */
  pending: { pairCode: string; point: ChartPoint } | null;
}

export type ChartSetupEvent =
  | { type: 'chartSetup.sessionStarted'; setups: ChartSetups | undefined }
  | { type: 'chartSetup.sessionEnded' }
  | { type: 'chart.typeChosen'; pairCode: string; chartType: ChartType }
  | { type: 'chart.setupReset'; pairCode: string }
  | { type: 'study.added'; pairCode: string; kind: StudyKind }
  | { type: 'study.updated'; pairCode: string; study: Study }
  | { type: 'study.removed'; pairCode: string; id: string }
  | { type: 'drawing.toolChosen'; pairCode: string; tool: DrawingTool }
  | { type: 'drawing.pointPicked'; pairCode: string; point: ChartPoint }
  | { type: 'drawing.cancelled' }
  | { type: 'drawing.removed'; pairCode: string; id: string };

export type ChartSetupParentEvent = { type: 'settings.changed'; patch: SettingsPatch };

/** A pair's setup, the defaults when it has none. */
export function setupOf(setups: ChartSetups, pairCode: string | null | undefined): ChartSetup {
  return (pairCode ? setups[pairCode] : undefined) ?? DEFAULT_CHART_SETUP;
}

/** The next id for a new study ('s1', 's2', ...) or drawing ('d1', ...) among the existing ones. */
export function nextId(prefix: 's' | 'd', existing: readonly { id: string }[]): string {
  let max = 0;
  for (const { id } of existing) {
    const n = id.startsWith(prefix) ? Number(id.slice(prefix.length)) : NaN;
    if (Number.isInteger(n) && n > max) max = n;
  }
  return `${prefix}${max + 1}`;
}

/** A new study with the usual periods (SMA 20, EMA 9, Bollinger 20/2, RSI 14, MACD 12/26/9). */
export function defaultStudy(kind: StudyKind, existing: readonly Study[]): Study {
  const id = nextId('s', existing);
  const used = new Set(existing.flatMap((s) => (s.kind === 'macd' ? [s.color, s.signalColor] : [s.color])));
  const free = STUDY_COLORS.filter((c) => !used.has(c));
  const color = free[0] ?? STUDY_COLORS[existing.length % STUDY_COLORS.length];
  switch (kind) {
    case 'sma':
      return { id, kind, period: 20, color };
    case 'ema':
      return { id, kind, period: 9, color };
    case 'bollinger':
      return { id, kind, period: 20, deviations: 2, color };
    case 'rsi':
      return { id, kind, period: 14, color };
    case 'macd':
      return { id, kind, fast: 12, slow: 26, signal: 9, color, signalColor: free[1] ?? STUDY_COLORS[(existing.length + 1) % STUDY_COLORS.length] };
  }
}

function withSetup(context: ChartSetupContext, pairCode: string, change: (setup: ChartSetup) => ChartSetup): Pick<ChartSetupContext, 'setups'> {
  return { setups: { ...context.setups, [pairCode]: change(setupOf(context.setups, pairCode)) } };
}

type NewDrawing = { kind: 'hline'; price: number } | { kind: 'trend'; from: ChartPoint; to: ChartPoint };

function addDrawing(context: ChartSetupContext, pairCode: string, drawing: NewDrawing): Pick<ChartSetupContext, 'setups'> {
  return withSetup(context, pairCode, (s) => ({ ...s, drawings: [...s.drawings, { ...drawing, id: nextId('d', s.drawings) } as Drawing] }));
}

export const chartSetupMachine = setup({
  types: {
    context: {} as ChartSetupContext,
    events: {} as ChartSetupEvent,
  },
  guards: {
    hasRoomForStudy: ({ context, event }) => {
      assertEvent(event, 'study.added');
      return setupOf(context.setups, event.pairCode).studies.length < MAX_STUDIES;
    },
    isValidStudyChange: ({ context, event }) => {
      assertEvent(event, 'study.updated');
      const current = setupOf(context.setups, event.pairCode).studies.find((s) => s.id === event.study.id);
      return current !== undefined && current.kind === event.study.kind && v.is(StudySchema, event.study);
    },
    hasStudy: ({ context, event }) => {
      assertEvent(event, 'study.removed');
      return setupOf(context.setups, event.pairCode).studies.some((s) => s.id === event.id);
    },
    hasDrawing: ({ context, event }) => {
      assertEvent(event, 'drawing.removed');
      return setupOf(context.setups, event.pairCode).drawings.some((d) => d.id === event.id);
    },
    isOtherType: ({ context, event }) => {
      assertEvent(event, 'chart.typeChosen');
      return setupOf(context.setups, event.pairCode).type !== event.chartType;
    },
    hasSavedSetup: ({ context, event }) => {
      assertEvent(event, 'chart.setupReset');
      return event.pairCode in context.setups;
    },
    isDrawingFull: ({ context, event }) => {
      assertEvent(event, 'drawing.toolChosen');
      return setupOf(context.setups, event.pairCode).drawings.length >= MAX_DRAWINGS;
    },
    isHorizontalTool: ({ event }) => {
      assertEvent(event, 'drawing.toolChosen');
      return event.tool === 'hline';
    },
    isPendingPair: ({ context, event }) => {
      assertEvent(event, 'drawing.pointPicked');
      return context.pending?.pairCode === event.pairCode;
    },
  },
  actions: {
    assignSetups: assign(({ event }) => {
      assertEvent(event, 'chartSetup.sessionStarted');
      return { setups: event.setups ?? {}, pending: null };
    }),
    clear: assign({ setups: {}, pending: null }),
    assignType: assign(({ context, event }) => {
      assertEvent(event, 'chart.typeChosen');
      return withSetup(context, event.pairCode, (s) => ({ ...s, type: event.chartType }));
    }),
    addStudy: assign(({ context, event }) => {
      assertEvent(event, 'study.added');
      return withSetup(context, event.pairCode, (s) => ({ ...s, studies: [...s.studies, defaultStudy(event.kind, s.studies)] }));
    }),
    updateStudy: assign(({ context, event }) => {
      assertEvent(event, 'study.updated');
      return withSetup(context, event.pairCode, (s) => ({ ...s, studies: s.studies.map((x) => (x.id === event.study.id ? event.study : x)) }));
    }),
    removeStudy: assign(({ context, event }) => {
      assertEvent(event, 'study.removed');
      return withSetup(context, event.pairCode, (s) => ({ ...s, studies: s.studies.filter((x) => x.id !== event.id) }));
    }),
    removeDrawing: assign(({ context, event }) => {
      assertEvent(event, 'drawing.removed');
      return withSetup(context, event.pairCode, (s) => ({ ...s, drawings: s.drawings.filter((x) => x.id !== event.id) }));
    }),
    removeSetup: assign(({ context, event }) => {
      assertEvent(event, 'chart.setupReset');
      const setups = { ...context.setups };
      delete setups[event.pairCode];
      return { setups };
    }),
    addHorizontalLine: assign(({ context, event }) => {
      assertEvent(event, 'drawing.pointPicked');
      return addDrawing(context, event.pairCode, { kind: 'hline', price: event.point.price });
    }),
    assignPending: assign(({ event }) => {
      assertEvent(event, 'drawing.pointPicked');
      return { pending: { pairCode: event.pairCode, point: event.point } };
    }),
    addTrendLine: assign(({ context, event }) => {
      assertEvent(event, 'drawing.pointPicked');
      const from = context.pending!.point;
      return { ...addDrawing(context, event.pairCode, { kind: 'trend', from, to: event.point }), pending: null };
    }),
    clearPending: assign({ pending: null }),
    /** The parent saves the setup of the pair the event named (null when it went back to the defaults). */
    saveSetup: enqueueActions(({ context, event, enqueue }) => {
      if (!('pairCode' in event)) return;
      const saved: ChartSetupParentEvent = { type: 'settings.changed', patch: { chart_setups: { [event.pairCode]: context.setups[event.pairCode] ?? null } } };
      enqueue.sendParent(saved);
    }),
  },
}).createMachine({
  id: 'chartSetup',
  context: { setups: {}, pending: null },
  initial: 'loggedOut',
  states: {
    loggedOut: {
      description: 'No session: nothing to show or save.',
      on: {
        'chartSetup.sessionStarted': { target: 'loggedIn', actions: 'assignSetups' },
      },
    },
    loggedIn: {
      initial: 'viewing',
      on: {
        'chartSetup.sessionEnded': { target: 'loggedOut', actions: 'clear' },
        'chartSetup.sessionStarted': { target: '.viewing', description: 'Another login: its saved setups replace these.', actions: 'assignSetups' },
        'chart.typeChosen': { guard: 'isOtherType', actions: ['assignType', 'saveSetup'] },
        'chart.setupReset': { guard: 'hasSavedSetup', target: '.viewing', actions: ['removeSetup', 'clearPending', 'saveSetup'] },
        'study.added': { guard: 'hasRoomForStudy', actions: ['addStudy', 'saveSetup'] },
        'study.updated': { guard: 'isValidStudyChange', actions: ['updateStudy', 'saveSetup'] },
        'study.removed': { guard: 'hasStudy', actions: ['removeStudy', 'saveSetup'] },
        'drawing.removed': { guard: 'hasDrawing', actions: ['removeDrawing', 'saveSetup'] },
        'drawing.toolChosen': [
          { guard: 'isDrawingFull', target: '.viewing', description: 'The pair already has MAX_DRAWINGS drawings.', actions: 'clearPending' },
          { guard: 'isHorizontalTool', target: '.placingHorizontal', actions: 'clearPending' },
          { target: '.placingTrendStart', actions: 'clearPending' },
        ],
        'drawing.cancelled': { target: '.viewing', actions: 'clearPending' },
      },
      states: {
        viewing: {
          description: 'No drawing tool: a click on the chart does nothing.',
        },
        placingHorizontal: {
          description: 'The next point picked on the chart places a horizontal line at its price.',
          on: {
            'drawing.pointPicked': { target: 'viewing', actions: ['addHorizontalLine', 'saveSetup'] },
          },
        },
        placingTrendStart: {
          description: 'The next point picked is the first end of a trend line.',
          on: {
            'drawing.pointPicked': { target: 'placingTrendEnd', actions: 'assignPending' },
          },
        },
        placingTrendEnd: {
          description: 'The next point picked on the same pair ends the trend line.',
          on: {
            'drawing.pointPicked': [
              { guard: 'isPendingPair', target: 'viewing', actions: ['addTrendLine', 'saveSetup'] },
              { description: 'The pair changed meanwhile: the line starts again here.', actions: 'assignPending' },
            ],
          },
        },
      },
    },
  },
});

export type ChartSetupMachine = typeof chartSetupMachine;
