/**
 * The trading journal (journal.machine): generated paths with full coverage, then behaviour:
 * it loads the week first, a period choice reads that period (a newer choice wins over a read
 * in flight), the group shown follows the choice and falls back to the first, a failure waits
 * for a retry.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import type { Journal, JournalGroup, JournalPeriod } from '../../contract/statistics';
import { groupKeyOf, journalMachine, selectGroup } from '../../machines/journal/journal.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const group = (account: 'real' | 'demo', currency: string): JournalGroup => ({
  account,
  currency,
  trades: 3,
  wins: 2,
  losses: 1,
  ties: 0,
  closed_early: 0,
  win_rate: 2 / 3,
  net_result: 5.5,
  total_stake: 30,
  average_stake: 10,
  average_payout_rate: 0.8,
  break_even_win_rate: 1 / 1.8,
  best_pair: null,
  worst_pair: null,
  by_pair: [],
  by_expiry: [],
  by_hour: [],
  streaks: { current: { kind: 'won', length: 1 }, longest_win: 1, longest_loss: 1 },
});
const journal = (period: JournalPeriod): Journal => ({ period, time_zone: 'UTC', from_ms: null, to_ms: 1, groups: [group('real', 'USD'), group('demo', 'USD')] });

const events: AnyEventObject[] = [
  { type: 'journal.periodChosen', period: 'month' },
  { type: 'journal.accountChosen', groupKey: 'demo:USD' },
  { type: 'journal.retryRequested' },
  { type: 'xstate.done.actor.loadJournal', output: journal('week') },
  { type: 'xstate.error.actor.loadJournal', error: { message: '' } },
];
const model: PathModel = { name: 'journal', machine: journalMachine, events, simplePaths: 60 };

describe('journal machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('journal'));
});

describe('journal', () => {
  it('loads the week, then the chosen period; the newest choice wins', async () => {
    const asked: JournalPeriod[] = [];
    const resolvers: Array<() => void> = [];
    const machine = journalMachine.provide({
      actors: {
        loadJournal: fromPromise<Journal, { period: JournalPeriod }>(({ input }) => {
          asked.push(input.period);
          return new Promise((resolve) => resolvers.push(() => resolve(journal(input.period))));
        }),
      },
    });
    const { actor } = startUnderParent(machine);
    actor.send({ type: 'journal.periodChosen', period: 'today' });
    actor.send({ type: 'journal.periodChosen', period: 'all' });
    expect(asked).toEqual(['week', 'today', 'all']);
    for (const r of resolvers) r();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.journal?.period).toBe('all');
  });

  it('shows the chosen group, else the first; a failure waits for a retry', async () => {
    let fail = true;
    const machine = journalMachine.provide({
      actors: {
        loadJournal: fromPromise<Journal, { period: JournalPeriod }>(async ({ input }) => {
          if (fail) throw new Error('');
          return journal(input.period);
        }),
      },
    });
    const { actor } = startUnderParent(machine);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('journal.load_failed');
    fail = false;
    actor.send({ type: 'journal.retryRequested' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(groupKeyOf(selectGroup(actor.getSnapshot().context)!)).toBe('real:USD');
    actor.send({ type: 'journal.accountChosen', groupKey: 'demo:USD' });
    expect(groupKeyOf(selectGroup(actor.getSnapshot().context)!)).toBe('demo:USD');
    actor.send({ type: 'journal.accountChosen', groupKey: 'real:EUR' });
    expect(groupKeyOf(selectGroup(actor.getSnapshot().context)!)).toBe('real:USD');
  });
});
