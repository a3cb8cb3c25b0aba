/**
 * The operator console's machines (machines/console/*): generated paths with full coverage for
 * each, then behaviour with stub actors: the root spawns the session and expires it on a 401;
 * the session's two-step login (password, then the code), its refusal in the server's words,
 * the periodic check and the logout; the list's filters, sorting, paging and CSV export; the
 * record's live refresh; the action's reason, four-eyes outcome and refusal.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyEventObject } from 'xstate';
import { consoleMachine } from '../../machines/console/console.machine';
import { consoleActionMachine } from '../../machines/console/console-action.machine';
import { consoleRecordMachine, type RecordQuery } from '../../machines/console/console-record.machine';
import { consoleTableMachine, nextSort, pageCount } from '../../machines/console/console-table.machine';
import type { ActionOutcome, ActionRequest, ConsoleOperator, LoginCredentials, TablePage, TableQuery } from '../../machines/console/console.types';
import { operatorSessionMachine } from '../../machines/console/operator-session.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, type PathModel } from './harness';

const operator: ConsoleOperator = { id: 7, username: 'finance1', role: 'finance', permissions: ['payments.read', 'payments.decide'] };

// ---- operator session ---------------------------------------------------------------------

const sessionEvents: AnyEventObject[] = [
  { type: 'operator.credentialsEntered', username: ' finance1 ', password: 'pw' },
  { type: 'operator.credentialsEntered', username: '', password: '' },
  { type: 'operator.codeEntered', code: '123456' },
  { type: 'operator.codeEntered', code: '12' },
  { type: 'operator.backRequested' },
  { type: 'operator.logoutRequested' },
  { type: 'operator.expired' },
  { type: 'xstate.done.actor.loadOperator', output: operator },
  { type: 'xstate.done.actor.loadOperator', output: null },
  { type: 'xstate.error.actor.loadOperator', error: { status: 0, message: '' } },
  { type: 'xstate.done.actor.logIn', output: operator },
  { type: 'xstate.error.actor.logIn', error: { status: 401, message: 'Invalid credentials' } },
  { type: 'xstate.done.actor.verifyOperator', output: operator },
  { type: 'xstate.done.actor.verifyOperator', output: null },
  { type: 'xstate.error.actor.verifyOperator', error: { status: 0, message: '' } },
  { type: 'xstate.done.actor.logOut' },
  { type: 'xstate.error.actor.logOut', error: { status: 0, message: '' } },
];
const sessionModel: PathModel = {
  name: 'operatorSession',
  machine: operatorSessionMachine,
  events: sessionEvents,
  simplePathEvents: [sessionEvents[0], sessionEvents[2], sessionEvents[7], sessionEvents[8], sessionEvents[10], sessionEvents[5], sessionEvents[15]],
  simplePaths: 60,
};

// ---- root ---------------------------------------------------------------------------------

const rootModel: PathModel = {
  name: 'console',
  machine: consoleMachine,
  input: { language: 'en' },
  events: [{ type: 'console.unauthorized' }, { type: 'console.languageChanged', language: 'ru' }],
};

// ---- table --------------------------------------------------------------------------------

const page: TablePage = { rows: [{ id: 1 }, { id: 2 }], total: 60 };
const tableEvents = (snapshot: { context: unknown }): AnyEventObject[] => {
  const filters = (snapshot.context as { filters: Record<string, string> }).filters;
  return [
    // Bounded: a filter is set once and cleared once, so the state space stays finite.
    { type: 'table.filterChanged', name: 'status', value: 'status' in filters ? '' : 'pending' },
    { type: 'table.sortChanged', key: 'created' },
    { type: 'table.pageChanged', page: 2 },
    { type: 'table.pageChanged', page: 99 },
    { type: 'table.refreshRequested' },
    { type: 'table.retryRequested' },
    { type: 'table.exportRequested' },
    { type: 'xstate.done.actor.fetchPage', output: page },
    { type: 'xstate.error.actor.fetchPage', error: { status: 500, message: 'Internal server error' } },
    { type: 'xstate.done.actor.exportCsv' },
    { type: 'xstate.error.actor.exportCsv', error: { status: 0, message: '' } },
  ];
};
const tableModel: PathModel = {
  name: 'consoleTable',
  machine: consoleTableMachine,
  input: { resource: 'withdrawals', pageSize: 25 },
  events: tableEvents,
  simplePaths: false,
  limit: 5000,
};

// ---- record -------------------------------------------------------------------------------

const recordEvents: AnyEventObject[] = [
  { type: 'record.refreshRequested' },
  { type: 'record.retryRequested' },
  { type: 'xstate.done.actor.fetchRecord', output: { deposits: 3 } },
  { type: 'xstate.error.actor.fetchRecord', error: { status: 500, message: 'Internal server error' } },
  { type: 'xstate.done.actor.refreshRecord', output: { deposits: 4 } },
  { type: 'xstate.error.actor.refreshRecord', error: { status: 0, message: '' } },
];
const recordModel: PathModel = { name: 'consoleRecord', machine: consoleRecordMachine, input: { resource: 'dashboard', params: {}, live: true }, events: recordEvents, simplePaths: 40 };
const staticRecordModel: PathModel = { ...recordModel, input: { resource: 'user', params: { id: '5' }, live: false } };

// ---- action -------------------------------------------------------------------------------

const actionEvents: AnyEventObject[] = [
  { type: 'action.started', action: 'withdrawal.approve', target: '12', reasonRequired: true, fields: { note: 'x' } },
  { type: 'action.confirmed', reason: '  checked the account  ' },
  { type: 'action.confirmed', reason: ' ' },
  { type: 'action.cancelled' },
  { type: 'action.dismissed' },
  { type: 'xstate.done.actor.performAction', output: { kind: 'awaitingApproval', approvalId: 3 } },
  { type: 'xstate.error.actor.performAction', error: { status: 403, message: 'You requested this: another operator must approve' } },
];
const actionModel: PathModel = { name: 'consoleAction', machine: consoleActionMachine, events: actionEvents, simplePaths: 40 };

describe('console machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(rootModel))('console %s', (_, path) => {
    replayPath(rootModel, path);
  });
  it.each(pathCases(sessionModel))('operatorSession %s', (_, path) => {
    replayPath(sessionModel, path);
  });
  it.each(pathCases(tableModel))('consoleTable %s', (_, path) => {
    replayPath(tableModel, path);
  });
  it.each(pathCases(recordModel))('consoleRecord live %s', (_, path) => {
    replayPath(recordModel, path);
  });
  it.each(pathCases(staticRecordModel))('consoleRecord static %s', (_, path) => {
    replayPath(staticRecordModel, path);
  });
  it.each(pathCases(actionModel))('consoleAction %s', (_, path) => {
    replayPath(actionModel, path);
  });
  it('console reaches every state and takes every transition', () => assertFullCoverage('console'));
  it('operatorSession reaches every state and takes every transition', () => assertFullCoverage('operatorSession'));
  it('consoleTable reaches every state and takes every transition', () => assertFullCoverage('consoleTable'));
  it('consoleRecord reaches every state and takes every transition', () => assertFullCoverage('consoleRecord'));
  it('consoleAction reaches every state and takes every transition', () => assertFullCoverage('consoleAction'));
});

// ---- behaviour ----------------------------------------------------------------------------

function session(outcomes: { me?: () => Promise<ConsoleOperator | null>; login?: (c: LoginCredentials) => Promise<ConsoleOperator> } = {}) {
  const calls = { me: 0, login: [] as LoginCredentials[], logout: 0 };
  const machine = operatorSessionMachine.provide({
    actors: {
      loadOperator: fromPromise<ConsoleOperator | null, void>(async () => {
        calls.me += 1;
        return (outcomes.me ?? (async () => null))();
      }),
      logIn: fromPromise<ConsoleOperator, LoginCredentials>(async ({ input }) => {
        calls.login.push(input);
        return (outcomes.login ?? (async () => operator))(input);
      }),
      logOut: fromPromise<void, void>(async () => {
        calls.logout += 1;
      }),
    },
  });
  return { actor: createActor(machine).start(), calls };
}

describe('operatorSession', () => {
  it('asks for the password, then the code, and signs in with all three', async () => {
    const { actor, calls } = session();
    await waitFor(actor, (s) => s.matches({ signedOut: 'credentials' }));
    actor.send({ type: 'operator.credentialsEntered', username: '', password: 'x' });
    expect(actor.getSnapshot().context.error).toBe('console.login.missing');
    actor.send({ type: 'operator.credentialsEntered', username: ' finance1 ', password: 'secret' });
    expect(actor.getSnapshot().matches({ signedOut: 'code' })).toBe(true);
    actor.send({ type: 'operator.codeEntered', code: 'abc' });
    expect(actor.getSnapshot().context.error).toBe('console.login.code_invalid');
    actor.send({ type: 'operator.codeEntered', code: ' 654321 ' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(calls.login).toEqual([{ username: 'finance1', password: 'secret', totp: '654321' }]);
    expect(actor.getSnapshot().context).toMatchObject({ operator, password: '', error: null });
  });

  it("shows a refusal in the server's words, back at the credentials with the password cleared", async () => {
    const { actor } = session({ login: () => Promise.reject(Object.assign(new Error('Invalid credentials'), { status: 401 })) });
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'operator.credentialsEntered', username: 'a', password: 'b' });
    actor.send({ type: 'operator.codeEntered', code: '000000' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().matches({ signedOut: 'credentials' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ error: 'Invalid credentials', password: '', username: 'a' });
  });

  it('an expired session goes back to the login with a notice; the periodic check finds a revoked one', async () => {
    vi.useFakeTimers();
    try {
      let current: ConsoleOperator | null = operator;
      const { actor, calls } = session({ me: async () => current });
      await vi.waitFor(() => expect(actor.getSnapshot().matches('signedIn')).toBe(true));
      actor.send({ type: 'operator.expired' });
      expect(actor.getSnapshot().context).toMatchObject({ operator: null, notice: 'console.login.expired' });

      const second = session({ me: async () => current });
      await vi.waitFor(() => expect(second.actor.getSnapshot().matches('signedIn')).toBe(true));
      current = null;
      await vi.advanceTimersByTimeAsync(60_000);
      await vi.waitFor(() => expect(second.actor.getSnapshot().matches('signedOut')).toBe(true));
      expect(second.actor.getSnapshot().context.notice).toBe('console.login.expired');
      expect(second.calls.me).toBe(2);
      expect(calls.me).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('logs out', async () => {
    const { actor, calls } = session({ me: async () => operator });
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'operator.logoutRequested' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(calls.logout).toBe(1);
    expect(actor.getSnapshot().context.operator).toBeNull();
  });
});

describe('console root', () => {
  it('spawns the session and expires it on a 401; keeps and stores the language', async () => {
    const stored: string[] = [];
    const machine = consoleMachine.provide({
      actions: { persistLanguage: (_, params) => void stored.push(params.language) },
      actors: {
        operatorSession: operatorSessionMachine.provide({ actors: { loadOperator: fromPromise<ConsoleOperator | null, void>(async () => operator) } }),
      },
    });
    const actor = createActor(machine, { input: { language: 'en' } }).start();
    const child = actor.system.get('operatorSession') as ReturnType<typeof createActor<typeof operatorSessionMachine>>;
    await waitFor(child, (s) => s.matches('signedIn'));
    actor.send({ type: 'console.unauthorized' });
    expect(child.getSnapshot().context.notice).toBe('console.login.expired');
    actor.send({ type: 'console.languageChanged', language: 'es' });
    expect(actor.getSnapshot().context.language).toBe('es');
    expect(stored).toEqual(['es']);
  });
});

describe('consoleTable', () => {
  it('filters, sorts, pages and exports with the same query', async () => {
    const reads: TableQuery[] = [];
    const exports: TableQuery[] = [];
    const machine = consoleTableMachine.provide({
      actors: {
        fetchPage: fromPromise<TablePage, TableQuery>(async ({ input }) => {
          reads.push(input);
          return page;
        }),
        exportCsv: fromPromise<void, TableQuery>(async ({ input }) => {
          exports.push(input);
        }),
      },
    });
    const actor = createActor(machine, { input: { resource: 'users' } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'table.pageChanged', page: 3 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.page === 3);
    actor.send({ type: 'table.filterChanged', name: 'q', value: ' ada ' });
    await waitFor(actor, (s) => s.matches('ready') && reads.length === 3);
    actor.send({ type: 'table.sortChanged', key: 'email' });
    actor.send({ type: 'table.sortChanged', key: 'email' });
    await waitFor(actor, (s) => s.matches('ready') && reads.length === 5);
    actor.send({ type: 'table.pageChanged', page: 9 });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.send({ type: 'table.exportRequested' });
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }) && exports.length === 1);
    expect(reads.map((q) => [q.page, q.filters, q.sort])).toEqual([
      [1, {}, null],
      [3, {}, null],
      [1, { q: 'ada' }, null],
      [1, { q: 'ada' }, { key: 'email', direction: 'asc' }],
      [1, { q: 'ada' }, { key: 'email', direction: 'desc' }],
    ]);
    expect(exports[0]).toEqual({ resource: 'users', filters: { q: 'ada' }, sort: { key: 'email', direction: 'desc' }, page: 1, pageSize: 25 });
    expect(pageCount({ total: 60, pageSize: 25 })).toBe(3);
    expect(nextSort(null, 'a')).toEqual({ key: 'a', direction: 'asc' });
  });

  it('a failed read waits for a retry', async () => {
    let fail = true;
    const machine = consoleTableMachine.provide({
      actors: {
        fetchPage: fromPromise<TablePage, TableQuery>(async () => {
          if (fail) throw Object.assign(new Error('Forbidden'), { status: 403 });
          return page;
        }),
      },
    });
    const actor = createActor(machine, { input: { resource: 'operators' } }).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('Forbidden');
    fail = false;
    actor.send({ type: 'table.retryRequested' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ rows: page.rows, total: 60, error: null });
  });
});

describe('consoleRecord', () => {
  it('a live record refreshes on its timer and keeps the last data when a refresh fails', async () => {
    vi.useFakeTimers();
    try {
      let n = 0;
      const machine = consoleRecordMachine.provide({
        actors: {
          fetchRecord: fromPromise<unknown, RecordQuery>(async () => {
            n += 1;
            if (n === 3) throw new Error('Internal server error');
            return { n };
          }),
        },
      });
      const actor = createActor(machine, { input: { resource: 'dashboard', params: {}, live: true } }).start();
      await vi.waitFor(() => expect(actor.getSnapshot().context.data).toEqual({ n: 1 }));
      await vi.advanceTimersByTimeAsync(15_000);
      await vi.waitFor(() => expect(actor.getSnapshot().context.data).toEqual({ n: 2 }));
      await vi.advanceTimersByTimeAsync(15_000);
      await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe('Internal server error'));
      expect(actor.getSnapshot().context.data).toEqual({ n: 2 });
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('consoleAction', () => {
  function action(perform: (r: ActionRequest) => Promise<ActionOutcome>) {
    const requests: ActionRequest[] = [];
    const machine = consoleActionMachine.provide({
      actors: {
        performAction: fromPromise<ActionOutcome, ActionRequest>(async ({ input }) => {
          requests.push(input);
          return perform(input);
        }),
      },
    });
    const actor = createActor(machine).start();
    const completed: unknown[] = [];
    actor.on('action.completed', (e) => completed.push(e));
    return { actor, requests, completed };
  }

  it('needs the reason, then sends it and shows the four-eyes outcome', async () => {
    const { actor, requests, completed } = action(async () => ({ kind: 'awaitingApproval', approvalId: 4 }));
    actor.send({ type: 'action.started', action: 'withdrawal.approve', target: '12', reasonRequired: true });
    actor.send({ type: 'action.confirmed', reason: '   ' });
    expect(actor.getSnapshot().context.error).toBe('console.action.reason_required');
    expect(requests).toEqual([]);
    actor.send({ type: 'action.confirmed', reason: ' verified ', fields: { amount: '5' } });
    await waitFor(actor, (s) => s.matches('finished'));
    expect(requests).toEqual([{ action: 'withdrawal.approve', target: '12', reason: 'verified', fields: { amount: '5' } }]);
    expect(actor.getSnapshot().context.outcome).toEqual({ kind: 'awaitingApproval', approvalId: 4 });
    expect(completed).toEqual([{ type: 'action.completed', action: 'withdrawal.approve', target: '12', outcome: { kind: 'awaitingApproval', approvalId: 4 } }]);
    actor.send({ type: 'action.dismissed' });
    expect(actor.getSnapshot().context.outcome).toBeNull();
  });

  it("a refusal stays in the dialog in the server's words", async () => {
    const { actor, completed } = action(() => Promise.reject(Object.assign(new Error('You requested this: another operator must approve'), { status: 403 })));
    actor.send({ type: 'action.started', action: 'approval.approve', target: '3', reasonRequired: false });
    actor.send({ type: 'action.confirmed', reason: '' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('You requested this: another operator must approve');
    expect(completed).toEqual([]);
  });
});
