/**
 * The trading journal of the profile screen (issue 16 item 6; contract/statistics.ts).
 *
 * Lifecycle: spawned with the profile screen (by the profilePage flow, systemId 'journal'),
 * stopped when it closes. It starts `loading` the period 'week' (GET /api/v2/statistics/me);
 * `journal.periodChosen {period}` reads that period; `journal.accountChosen {account}` picks
 * which group (account type and currency, "real:USD") is shown without a request;
 * `journal.retryRequested` reads again after a failure. While a read runs, a newer choice
 * replaces it (the older answer is dropped).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { Journal, JournalGroup, JournalPeriod } from '../../contract/statistics';
import { errorText } from '../types';

export interface JournalContext {
  period: JournalPeriod;
  journal: Journal | null;
  /** "real:USD" of the group shown; null: the first one. */
  groupKey: string | null;
  error: string | null;
}

export type JournalEvent =
  | { type: 'journal.periodChosen'; period: JournalPeriod }
  | { type: 'journal.accountChosen'; groupKey: string }
  | { type: 'journal.retryRequested' };

export const groupKeyOf = (g: Pick<JournalGroup, 'account' | 'currency'>) => `${g.account}:${g.currency}`;

/** The group the view shows: the chosen one while it exists, else the first (real money first). */
export function selectGroup(context: Pick<JournalContext, 'journal' | 'groupKey'>): JournalGroup | null {
  const groups = context.journal?.groups ?? [];
  return groups.find((g) => groupKeyOf(g) === context.groupKey) ?? groups[0] ?? null;
}

function missing(name: string): never {
  throw new Error(`journalMachine: the "${name}" actor has no implementation; supply it with journalMachine.provide()`);
}

export const journalMachine = setup({
  types: {
    context: {} as JournalContext,
    events: {} as JournalEvent,
  },
  actors: {
    loadJournal: fromPromise<Journal, { period: JournalPeriod }>(() => missing('loadJournal')),
  },
  actions: {
    assignPeriod: assign(({ event }) => {
      assertEvent(event, 'journal.periodChosen');
      return { period: event.period };
    }),
    assignGroup: assign(({ event }) => {
      assertEvent(event, 'journal.accountChosen');
      return { groupKey: event.groupKey };
    }),
    assignJournal: assign((_, journal: Journal) => ({ journal, error: null })),
    assignError: assign((_, params: { error: unknown }) => ({ error: errorText(params.error) ?? 'journal.load_failed' })),
  },
}).createMachine({
  id: 'journal',
  context: { period: 'week', journal: null, groupKey: null, error: null },
  initial: 'loading',
  on: {
    'journal.periodChosen': { target: '.loading', reenter: true, actions: 'assignPeriod' },
    'journal.accountChosen': { actions: 'assignGroup' },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadJournal',
        src: 'loadJournal',
        input: ({ context }) => ({ period: context.period }),
        onDone: { target: 'ready', actions: { type: 'assignJournal', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {},
    failed: {
      on: { 'journal.retryRequested': { target: 'loading' } },
    },
  },
});

export type JournalMachine = typeof journalMachine;
