/**
 * The transaction history: generated paths over list / export / notifications, then focused
 * behaviour with real promise actors: the query sent for filters, paging and page size ('all'
 * left out), a change while loading restarts the load, pushes refresh a shown list and toast
 * final statuses, export with the same filters and its toasts, logout clears; and the status
 * display rules of spec section 4 as tables.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import {
  approvalDisplay,
  mergeFilters,
  paymentBadgeKind,
  statusToast,
  transactionsMachine,
  transactionQuery,
  DEFAULT_FILTERS,
  type ExportTransactionsInput,
  type FetchTransactionsInput,
  type TransactionListOutput,
} from '../../machines/transactions/transactions.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { transaction } from './money-fixtures';
import en from '../../locales/en.json';

const page = (rows: number, total: number, pageNo = 1, limit = 10): TransactionListOutput => ({
  transactions: Array.from({ length: rows }, (_, i) => transaction({ id: 100 - i - (pageNo - 1) * limit })),
  pagination: { page: pageNo, limit, total_count: total, total_pages: Math.ceil(total / limit) },
});
const twoPages = page(10, 15);

const ev = {
  opened: { type: 'transactions.opened' },
  deposits: { type: 'transactions.filtersChanged', filters: { type: 'deposit' } },
  reset: { type: 'transactions.filtersReset' },
  page2: { type: 'transactions.pageChanged', page: 2 },
  page9: { type: 'transactions.pageChanged', page: 9 },
  limit20: { type: 'transactions.limitChanged', limit: 20 },
  limit7: { type: 'transactions.limitChanged', limit: 7 },
  retry: { type: 'transactions.retryRequested' },
  approved: { type: 'transactions.statusUpdated', transactionId: 100, status: 'approved', transactionType: 'deposit' },
  processing: { type: 'transactions.statusUpdated', transactionId: 100, status: 'processing', transactionType: 'deposit' },
  exportIt: { type: 'transactions.exportRequested' },
  cleared: { type: 'transactions.cleared' },
  loadedTwo: { type: 'xstate.done.actor.fetchTransactions', output: twoPages },
  loadFailed: { type: 'xstate.error.actor.fetchTransactions', error: { message: 'Failed to get transactions' } },
  exported: { type: 'xstate.done.actor.exportTransactions', output: undefined },
  exportFailed: { type: 'xstate.error.actor.exportTransactions', error: { message: 'Request failed' } },
  exportFailedSilently: { type: 'xstate.error.actor.exportTransactions', error: null },
} as const satisfies Record<string, AnyEventObject>;

const model: PathModel = {
  name: 'transactions',
  machine: transactionsMachine,
  events: Object.values(ev),
  simplePathEvents: [ev.opened, ev.loadedTwo, ev.loadFailed, ev.retry, ev.approved, ev.exportIt, ev.exported],
  simplePaths: 300,
};

describe('transactions machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('transactions'));
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function harness(options: { exportFails?: boolean } = {}) {
  const queries: FetchTransactionsInput['query'][] = [];
  const exports: ExportTransactionsInput['query'][] = [];
  const pending: Array<ReturnType<typeof deferred<TransactionListOutput>>> = [];
  const machine = transactionsMachine.provide({
    actors: {
      fetchTransactions: fromPromise<TransactionListOutput, FetchTransactionsInput>(({ input }) => {
        queries.push(input.query);
        const d = deferred<TransactionListOutput>();
        pending.push(d);
        return d.promise;
      }),
      exportTransactions: fromPromise<void, ExportTransactionsInput>(async ({ input }) => {
        exports.push(input.query);
        if (options.exportFails) throw new Error('Export failed on the server');
      }),
    },
  });
  const { actor, parentEvents } = startUnderParent(machine);
  const last = () => pending[pending.length - 1];
  return { actor, parentEvents, queries, exports, last };
}

describe('transactions behaviour', () => {
  it('loads page 1 with the default size and leaves "all" filters out', async () => {
    const { actor, queries, last } = harness();
    actor.send(ev.opened);
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(queries).toEqual([{ page: 1, limit: 10 }]);
    last().resolve(twoPages);
    await waitFor(actor, (s) => s.matches({ list: 'loaded' }));
    expect(actor.getSnapshot().context.transactions).toHaveLength(10);
    expect(actor.getSnapshot().context.pagination?.total_pages).toBe(2);
  });

  it('sends filters, page and size; a filter or size change goes back to page 1', async () => {
    const { actor, queries, last } = harness();
    actor.send(ev.opened);
    last().resolve(twoPages);
    await waitFor(actor, (s) => s.matches({ list: 'loaded' }));
    actor.send(ev.page2);
    expect(queries[1]).toEqual({ page: 2, limit: 10 });
    last().resolve(page(5, 15, 2));
    await waitFor(actor, (s) => s.matches({ list: 'loaded' }));
    actor.send(ev.page9);
    actor.send({ type: 'transactions.pageChanged', page: 2 });
    expect(queries).toHaveLength(2);
    actor.send({ type: 'transactions.filtersChanged', filters: { type: 'withdrawal', status: 'pending', account: 'real', dateFrom: '2026-11-30', dateTo: '2026-11-01' } });
    expect(queries[2]).toEqual({ page: 1, limit: 10, type: 'withdrawal', status: 'pending', account: 'real', date_from: '2026-11-01', date_to: '2026-11-30' });
    actor.send(ev.limit20);
    expect(queries[3]).toMatchObject({ page: 1, limit: 20 });
    actor.send(ev.limit7);
    actor.send(ev.limit20);
    expect(queries).toHaveLength(4);
    actor.send(ev.reset);
    expect(queries[4]).toEqual({ page: 1, limit: 20 });
  });

  it('a change while a load runs restarts it, so a late answer for the old filters is dropped', async () => {
    const { actor, last } = harness();
    actor.send(ev.opened);
    const first = last();
    actor.send(ev.deposits);
    const second = last();
    first.resolve(page(3, 3));
    second.resolve(page(1, 1));
    await waitFor(actor, (s) => s.matches({ list: 'loaded' }));
    expect(actor.getSnapshot().context.transactions).toHaveLength(1);
  });

  it('a failure keeps the server text; Retry loads again', async () => {
    const { actor, last, queries } = harness();
    actor.send(ev.opened);
    last().reject(new Error('Failed to get transactions'));
    await waitFor(actor, (s) => s.matches({ list: 'failed' }));
    expect(actor.getSnapshot().context.error).toBe('Failed to get transactions');
    actor.send(ev.retry);
    expect(queries).toHaveLength(2);
    last().resolve(page(0, 0));
    await waitFor(actor, (s) => s.matches({ list: 'loaded' }));
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a status push refreshes a shown list in place and toasts final statuses only', async () => {
    const { actor, last, queries, parentEvents } = harness();
    actor.send(ev.approved);
    expect(queries).toHaveLength(0);
    expect(parentEvents).toHaveLength(1);
    actor.send(ev.opened);
    last().resolve(twoPages);
    await waitFor(actor, (s) => s.matches({ list: 'loaded' }));
    actor.send(ev.processing);
    expect(actor.getSnapshot().matches({ list: 'refreshing' })).toBe(true);
    expect(actor.getSnapshot().context.transactions).toHaveLength(10);
    expect(queries).toHaveLength(2);
    actor.send({ type: 'transactions.statusUpdated', transactionId: 90, status: 'failed', transactionType: 'withdrawal' });
    expect(queries).toHaveLength(3);
    expect(parentEvents).toEqual([
      { type: 'toast.requested', toast: { type: 'success', messageKey: 'transactions.toast_deposit_completed', params: { id: 100 } } },
      { type: 'toast.requested', toast: { type: 'error', messageKey: 'transactions.toast_withdrawal_failed', params: { id: 90 } } },
    ]);
  });

  it('exports with the filters but without paging, and toasts the outcome', async () => {
    const ok = harness();
    ok.actor.send(ev.deposits);
    ok.actor.send(ev.exportIt);
    ok.actor.send(ev.exportIt);
    await waitFor(ok.actor, (s) => s.matches({ export: 'idle' }));
    expect(ok.exports).toEqual([{ type: 'deposit' }]);
    expect(ok.parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'success', messageKey: 'transactions.export_done' } }]);
    const failing = harness({ exportFails: true });
    failing.actor.send(ev.exportIt);
    await waitFor(failing.actor, (s) => s.matches({ export: 'idle' }));
    expect(failing.parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'error', message: 'Export failed on the server' } }]);
  });

  it('logout clears rows, filters and paging', async () => {
    const { actor, last } = harness();
    actor.send(ev.opened);
    actor.send(ev.deposits);
    last().resolve(twoPages);
    await waitFor(actor, (s) => s.matches({ list: 'loaded' }));
    actor.send(ev.cleared);
    expect(actor.getSnapshot().value).toEqual({ list: 'idle', export: 'idle', notifications: 'listening' });
    expect(actor.getSnapshot().context).toEqual({ filters: DEFAULT_FILTERS, page: 1, limit: 10, transactions: [], pagination: null, error: null });
  });
});

describe('display rules (spec section 4)', () => {
  it.each([
    ['pending', 'pending', 'warning'],
    ['processing', 'pending', 'warning'],
    ['approved', 'completed', 'success'],
    ['failed', 'failed', 'error'],
    ['expired', 'expired', 'warning'],
    ['cancelled', 'cancelled', 'warning'],
  ])('approval_status %s shows as %s (%s)', (status, label, kind) => {
    expect(approvalDisplay(status)).toEqual({ label, kind });
  });

  it.each([
    ['deposit', 'pending', 'warning'],
    ['deposit', 'completed', 'success'],
    ['deposit', 'failed', 'error'],
    ['deposit', 'expired', 'error'],
    ['withdrawal', 'completed', 'success'],
    ['withdrawal', 'pending', 'warning'],
    ['withdrawal', 'failed', 'warning'],
  ] as const)('payment badge: %s %s is %s', (type, status, kind) => {
    expect(paymentBadgeKind(type, status)).toBe(kind);
  });

  it('helpers: query without paging, swapped dates, toasts without a type', () => {
    expect(transactionQuery({ filters: DEFAULT_FILTERS, page: 3, limit: 50 }, false)).toEqual({});
    expect(mergeFilters(DEFAULT_FILTERS, { dateFrom: '2026-01-02', dateTo: '2026-01-01' })).toMatchObject({ dateFrom: '2026-01-01', dateTo: '2026-01-02' });
    expect(statusToast('expired', undefined, 5)).toEqual({ type: 'error', messageKey: 'transactions.toast_payment_failed', params: { id: 5 } });
    // Spec section 8 "Transaction failed": a failed push of a transaction of unknown type.
    expect(en.transactions.toast_payment_failed.replace('{{id}}', '5')).toBe('Transaction failed (#5)');
  });
});
