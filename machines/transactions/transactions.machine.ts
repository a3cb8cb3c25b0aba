/**
 * The transaction history (spec section 2: /profile#transactions; section 3 filters; section 4
 * status display; section 7 GET /api/v2/transactions; section 8 "Failed to get transactions",
 * "Transactions not found") with its CSV export and the payment status toasts.
 *
 * Lifecycle: long-lived, spawned by the app with the systemId 'transactions', so the filters
 * survive navigation and a status push is heard even when no history is on screen. Three
 * parallel regions:
 * - `list`: `idle` until the history is shown (`transactions.opened`); `loading` (skeleton)
 *   invokes `fetchTransactions`; `loaded` or `failed` (Retry). A filter, page or page-size
 *   change reloads from `loading` (a change while one load runs restarts it); opening the
 *   history again or a payment status push reloads in `refreshing` (the rows stay on screen).
 * - `export`: `idle` <-> `exporting` (invokes `exportTransactions` with the same filters; the
 *   real actor downloads the CSV); the outcome is a toast.
 * - `notifications`: every final payment status push (the app routes payment_status_update
 *   here) becomes a toast: deposit completed / failed, withdrawal completed / failed.
 * `transactions.cleared` (logout) empties everything and returns to `idle`.
 */
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import {
  TRANSACTION_PAGE_SIZES,
  TRANSACTIONS_PAGE_DEFAULT,
  type ApprovalStatus,
  type ListStatus,
  type Transaction,
  type TransactionPagination,
  type TransactionType,
} from '../../contract/payments';
import { errorText, type ToastRequest } from '../types';

export type TypeFilter = TransactionType | 'all';
export type StatusFilter = ListStatus | 'all';
export type AccountFilter = 'real' | 'demo' | 'all';

export interface TransactionFilters {
  type: TypeFilter;
  status: StatusFilter;
  account: AccountFilter;
  /** A calendar day (YYYY-MM-DD) in the browser's time zone, or null. */
  dateFrom: string | null;
  dateTo: string | null;
}

/** The list call's query (spec section 7): 'all' filters are left out. */
export interface TransactionQuery {
  page?: number;
  limit?: number;
  type?: TransactionType;
  status?: ListStatus;
  account?: 'real' | 'demo';
  /** YYYY-MM-DD in the browser's time zone; the service turns it into the day's bounds. */
  date_from?: string;
  date_to?: string;
}

export interface TransactionsContext {
  filters: TransactionFilters;
  page: number;
  limit: number;
  transactions: Transaction[];
  pagination: TransactionPagination | null;
  /** Why the last load failed (the service's text: the server's or "Failed to get transactions"). */
  error: string | null;
}

export interface TransactionListOutput {
  transactions: Transaction[];
  pagination: TransactionPagination;
}

export type TransactionsEvent =
  | { type: 'transactions.opened' }
  | { type: 'transactions.filtersChanged'; filters: Partial<TransactionFilters> }
  | { type: 'transactions.filtersReset' }
  | { type: 'transactions.pageChanged'; page: number }
  | { type: 'transactions.limitChanged'; limit: number }
  | { type: 'transactions.retryRequested' }
  | { type: 'transactions.statusUpdated'; transactionId: number; status: ApprovalStatus; transactionType?: TransactionType }
  | { type: 'transactions.exportRequested' }
  | { type: 'transactions.cleared' };

export type TransactionsParentEvent = { type: 'toast.requested'; toast: ToastRequest };

export interface FetchTransactionsInput {
  query: TransactionQuery;
}
export interface ExportTransactionsInput {
  /** The list's filters without the paging. */
  query: TransactionQuery;
}

export const DEFAULT_FILTERS: TransactionFilters = { type: 'all', status: 'all', account: 'all', dateFrom: null, dateTo: null };
const FINAL_STATUSES: readonly ApprovalStatus[] = ['approved', 'failed', 'expired', 'cancelled'];

/** The query for the current filters (and paging, unless `paging` is false). */
export function transactionQuery(context: Pick<TransactionsContext, 'filters' | 'page' | 'limit'>, paging = true): TransactionQuery {
  const { type, status, account, dateFrom, dateTo } = context.filters;
  const query: TransactionQuery = paging ? { page: context.page, limit: context.limit } : {};
  if (type !== 'all') query.type = type;
  if (status !== 'all') query.status = status;
  if (account !== 'all') query.account = account;
  if (dateFrom) query.date_from = dateFrom;
  if (dateTo) query.date_to = dateTo;
  return query;
}

/** Filters merged with a change; a reversed date range is put the right way round. */
export function mergeFilters(current: TransactionFilters, change: Partial<TransactionFilters>): TransactionFilters {
  const next = { ...current, ...change };
  if (next.dateFrom && next.dateTo && next.dateFrom > next.dateTo) return { ...next, dateFrom: next.dateTo, dateTo: next.dateFrom };
  return next;
}

/** The toast for a final status push. */
export function statusToast(status: ApprovalStatus, transactionType: TransactionType | undefined, id: number): ToastRequest {
  const kind = transactionType ?? 'payment';
  const approved = status === 'approved';
  return { type: approved ? 'success' : 'error', messageKey: `transactions.toast_${kind}_${approved ? 'completed' : 'failed'}`, params: { id } };
}

export const transactionsMachine = setup({
  types: {
    context: {} as TransactionsContext,
    events: {} as TransactionsEvent,
  },
  actors: {
    fetchTransactions: fromPromise<TransactionListOutput, FetchTransactionsInput>(() => {
      throw new Error('transactionsMachine: the "fetchTransactions" actor has no implementation; supply it with transactionsMachine.provide()');
    }),
    exportTransactions: fromPromise<void, ExportTransactionsInput>(() => {
      throw new Error('transactionsMachine: the "exportTransactions" actor has no implementation; supply it with transactionsMachine.provide()');
    }),
  },
  actions: {
    assignFilters: assign(({ context, event }) => {
      assertEvent(event, 'transactions.filtersChanged');
      return { filters: mergeFilters(context.filters, event.filters), page: 1 };
    }),
    resetFilters: assign({ filters: DEFAULT_FILTERS, page: 1 }),
    assignPage: assign(({ event }) => {
      assertEvent(event, 'transactions.pageChanged');
      return { page: event.page };
    }),
    assignLimit: assign(({ event }) => {
      assertEvent(event, 'transactions.limitChanged');
      return { limit: event.limit, page: 1 };
    }),
    assignList: assign((_, output: TransactionListOutput) => ({ transactions: output.transactions, pagination: output.pagination, error: null })),
    assignError: assign((_, params: { message: string | null }) => ({ error: params.message })),
    clearAll: assign({ filters: DEFAULT_FILTERS, page: 1, limit: TRANSACTIONS_PAGE_DEFAULT, transactions: [], pagination: null, error: null }),
    toastStatus: sendParent(({ event }): TransactionsParentEvent => {
      assertEvent(event, 'transactions.statusUpdated');
      return { type: 'toast.requested', toast: statusToast(event.status, event.transactionType, event.transactionId) };
    }),
    toastExported: sendParent((): TransactionsParentEvent => ({ type: 'toast.requested', toast: { type: 'success', messageKey: 'transactions.export_done' } })),
    toastExportFailed: sendParent(
      (_, params: { message: string | null }): TransactionsParentEvent => ({
        type: 'toast.requested',
        toast: params.message ? { type: 'error', message: params.message } : { type: 'error', messageKey: 'transactions.export_failed' },
      }),
    ),
  },
  guards: {
    isPageValid: ({ context, event }) => {
      assertEvent(event, 'transactions.pageChanged');
      const last = context.pagination?.total_pages ?? 1;
      return Number.isInteger(event.page) && event.page >= 1 && event.page <= Math.max(1, last) && event.page !== context.page;
    },
    isLimitValid: ({ context, event }) => {
      assertEvent(event, 'transactions.limitChanged');
      return (TRANSACTION_PAGE_SIZES as readonly number[]).includes(event.limit) && event.limit !== context.limit;
    },
    isFinalStatus: ({ event }) => {
      assertEvent(event, 'transactions.statusUpdated');
      return FINAL_STATUSES.includes(event.status);
    },
  },
}).createMachine({
  id: 'transactions',
  context: {
    filters: DEFAULT_FILTERS,
    page: 1,
    limit: TRANSACTIONS_PAGE_DEFAULT,
    transactions: [],
    pagination: null,
    error: null,
  },
  type: 'parallel',
  on: {
    'transactions.cleared': {
      target: ['.list.idle', '.export.idle'],
      description: 'Logout: nothing of the previous user stays.',
      actions: 'clearAll',
    },
  },
  states: {
    list: {
      initial: 'idle',
      on: {
        'transactions.filtersChanged': { target: '.loading', reenter: true, actions: 'assignFilters' },
        'transactions.filtersReset': { target: '.loading', reenter: true, actions: 'resetFilters' },
        'transactions.pageChanged': { guard: 'isPageValid', target: '.loading', reenter: true, actions: 'assignPage' },
        'transactions.limitChanged': { guard: 'isLimitValid', target: '.loading', reenter: true, actions: 'assignLimit' },
      },
      states: {
        idle: {
          description: 'Nothing loaded: the history has not been shown yet.',
          on: { 'transactions.opened': 'loading' },
        },
        loading: {
          tags: ['busy'],
          description: 'New rows for new filters or a new page: the view shows a skeleton.',
          invoke: {
            id: 'fetchTransactions',
            src: 'fetchTransactions',
            input: ({ context }) => ({ query: transactionQuery(context) }),
            onDone: { target: 'loaded', actions: { type: 'assignList', params: ({ event }) => event.output } },
            onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorText(event.error) }) } },
          },
        },
        refreshing: {
          tags: ['busy'],
          description: 'The same query again: the rows stay on screen while it runs.',
          on: {
            'transactions.statusUpdated': { target: 'refreshing', reenter: true },
          },
          invoke: {
            id: 'fetchTransactions',
            src: 'fetchTransactions',
            input: ({ context }) => ({ query: transactionQuery(context) }),
            onDone: { target: 'loaded', actions: { type: 'assignList', params: ({ event }) => event.output } },
            onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorText(event.error) }) } },
          },
        },
        loaded: {
          on: {
            'transactions.opened': 'refreshing',
            'transactions.statusUpdated': 'refreshing',
          },
        },
        failed: {
          on: {
            'transactions.retryRequested': 'loading',
            'transactions.opened': 'loading',
          },
        },
      },
    },
    export: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'transactions.exportRequested': 'exporting' },
        },
        exporting: {
          description: 'One export at a time; the real actor downloads the CSV.',
          invoke: {
            id: 'exportTransactions',
            src: 'exportTransactions',
            input: ({ context }) => ({ query: transactionQuery(context, false) }),
            onDone: { target: 'idle', actions: 'toastExported' },
            onError: { target: 'idle', actions: { type: 'toastExportFailed', params: ({ event }) => ({ message: errorText(event.error) }) } },
          },
        },
      },
    },
    notifications: {
      initial: 'listening',
      states: {
        listening: {
          on: {
            'transactions.statusUpdated': { guard: 'isFinalStatus', actions: 'toastStatus', description: 'pending/processing pushes are not announced.' },
          },
        },
      },
    },
  },
});


// ---- display rules (spec section 4) ---------------------------------------------------------

export type BadgeKind = 'success' | 'warning' | 'error';

/** approval_status as lists show it: pending/processing -> pending (warning), approved -> completed (success), failed -> failed (error), anything else as is (warning). */
export function approvalDisplay(status: string): { label: string; kind: BadgeKind } {
  if (status === 'pending' || status === 'processing') return { label: 'pending', kind: 'warning' };
  if (status === 'approved') return { label: 'completed', kind: 'success' };
  if (status === 'failed') return { label: 'failed', kind: 'error' };
  return { label: status, kind: 'warning' };
}

/** The payment status badge: deposit pending -> warning, completed -> success, else error; withdrawal completed -> success, else warning. */
export function paymentBadgeKind(transactionType: TransactionType, displayStatus: string): BadgeKind {
  if (transactionType === 'deposit') {
    if (displayStatus === 'pending') return 'warning';
    if (displayStatus === 'completed') return 'success';
    return 'error';
  }
  return displayStatus === 'completed' ? 'success' : 'warning';
}
