/**
 * One list screen of the operator console (users, KYC queue, deposits, withdrawals, approvals,
 * risk limits, pairs, operators, audit log, a user's orders and transactions): the same machine
 * for every list, told which one by its input (`resource`), so filters, sorting, pagination,
 * the loading/error/retry states and the CSV export behave alike everywhere.
 *
 * Lifecycle: created by the screen (src/console) for as long as the list is on screen.
 * - `loading` reads one page (`fetchPage` with the query: resource, filters, sort, page, page
 *   size) -> `ready` with the rows and the total, or `failed` with the error until
 *   `table.retryRequested`.
 * - In `ready` (and while still loading, which restarts the read) `table.filterChanged
 *   {name, value}` (an empty value drops the filter) goes back to page 1, `table.sortChanged
 *   {key}` sorts by that column (ascending first, the same column again flips the direction),
 *   `table.pageChanged {page}` reads another page, `table.refreshRequested` the same page again
 *   (after an action changed a row).
 * - `ready.idle` -(table.exportRequested)-> `ready.exporting`: the same query without paging as
 *   CSV (the server's `?format=csv`, saved by the browser); a failure stays as `exportError`.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorText } from '../types';
import type { TablePage, TableQuery, TableSort } from './console.types';

export interface ConsoleTableInput {
  resource: string;
  filters?: Record<string, string>;
  sort?: TableSort | null;
  pageSize?: number;
}

export interface ConsoleTableContext {
  resource: string;
  filters: Record<string, string>;
  sort: TableSort | null;
  page: number;
  pageSize: number;
  rows: unknown[];
  total: number;
  /** The last failed read (server text) or a locale key. */
  error: string | null;
  exportError: string | null;
}

export type ConsoleTableEvent =
  | { type: 'table.filterChanged'; name: string; value: string }
  | { type: 'table.sortChanged'; key: string }
  | { type: 'table.pageChanged'; page: number }
  | { type: 'table.refreshRequested' }
  | { type: 'table.retryRequested' }
  | { type: 'table.exportRequested' };

export const DEFAULT_PAGE_SIZE = 25;

/** The query the context stands for (what a page read and the export send). */
export function tableQuery(context: Pick<ConsoleTableContext, 'resource' | 'filters' | 'sort' | 'page' | 'pageSize'>): TableQuery {
  return { resource: context.resource, filters: context.filters, sort: context.sort, page: context.page, pageSize: context.pageSize };
}

/** Pages of the list (at least one). */
export function pageCount(context: Pick<ConsoleTableContext, 'total' | 'pageSize'>): number {
  return Math.max(1, Math.ceil(context.total / context.pageSize));
}

/** The sort after a click on a column: ascending first, the same column flips. */
export function nextSort(current: TableSort | null, key: string): TableSort {
  if (current?.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

function missing(name: string): never {
  throw new Error(`consoleTableMachine: the "${name}" actor has no implementation; supply it with consoleTableMachine.provide()`);
}

export const consoleTableMachine = setup({
  types: {
    context: {} as ConsoleTableContext,
    events: {} as ConsoleTableEvent,
    input: {} as ConsoleTableInput,
  },
  actors: {
    fetchPage: fromPromise<TablePage, TableQuery>(() => missing('fetchPage')),
    /** Downloads the list as CSV (the server's ?format=csv); resolves once the file is handed to the browser. */
    exportCsv: fromPromise<void, TableQuery>(() => missing('exportCsv')),
  },
  actions: {
    assignPage: assign((_, page: TablePage) => ({ rows: page.rows, total: page.total, error: null })),
    assignError: assign((_, params: { error: unknown }) => ({ error: errorText(params.error) ?? 'console.table.load_failed' })),
    assignFilter: assign(({ context, event }) => {
      assertEvent(event, 'table.filterChanged');
      const filters = { ...context.filters };
      if (event.value.trim() === '') delete filters[event.name];
      else filters[event.name] = event.value.trim();
      return { filters, page: 1 };
    }),
    assignSort: assign(({ context, event }) => {
      assertEvent(event, 'table.sortChanged');
      return { sort: nextSort(context.sort, event.key), page: 1 };
    }),
    assignPageNumber: assign(({ event }) => {
      assertEvent(event, 'table.pageChanged');
      return { page: event.page };
    }),
    clearExportError: assign({ exportError: null }),
    assignExportError: assign((_, params: { error: unknown }) => ({ exportError: errorText(params.error) ?? 'console.table.export_failed' })),
  },
  guards: {
    isPageInRange: ({ context, event }) => {
      assertEvent(event, 'table.pageChanged');
      return Number.isInteger(event.page) && event.page >= 1 && event.page <= pageCount(context) && event.page !== context.page;
    },
  },
}).createMachine({
  id: 'consoleTable',
  context: ({ input }) => ({
    resource: input.resource,
    filters: input.filters ?? {},
    sort: input.sort ?? null,
    page: 1,
    pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE,
    rows: [],
    total: 0,
    error: null,
    exportError: null,
  }),
  initial: 'loading',
  on: {
    'table.filterChanged': { target: '.loading', reenter: true, actions: 'assignFilter' },
    'table.sortChanged': { target: '.loading', reenter: true, actions: 'assignSort' },
  },
  states: {
    loading: {
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => tableQuery(context),
        onDone: { target: 'ready', actions: { type: 'assignPage', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { 'table.retryRequested': { target: 'loading' } },
    },
    ready: {
      initial: 'idle',
      on: {
        'table.pageChanged': { guard: 'isPageInRange', target: 'loading', actions: 'assignPageNumber' },
        'table.refreshRequested': { target: 'loading' },
      },
      states: {
        idle: {
          on: { 'table.exportRequested': { target: 'exporting', actions: 'clearExportError' } },
        },
        exporting: {
          invoke: {
            id: 'exportCsv',
            src: 'exportCsv',
            input: ({ context }) => tableQuery(context),
            onDone: { target: 'idle' },
            onError: { target: 'idle', actions: { type: 'assignExportError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});

export type ConsoleTableMachine = typeof consoleTableMachine;
