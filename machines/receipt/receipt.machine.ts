/**
 * An order's receipt dialog (docs/trading.md, "Receipts"): the order card's "Receipt" button
 * opens it, the machine fetches GET /api/platform/orders/{id}/receipt (the `fetchReceipt` actor,
 * provided by src/services/receipt-actors.ts) and the dialog shows it.
 *
 * Lifecycle: one per order card while its details are shown. `closed` -> `receipt.opened` ->
 * `loading` -> `shown` (the receipt kept in context) or `failed` (the error text kept);
 * `receipt.retried` loads again from `failed`, `receipt.refreshed` from `shown` (an open order's
 * receipt gains its exit tick once settled); `receipt.closed` closes from anywhere, and a
 * late answer after closing is dropped (the invoke is cancelled with the state).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { OrderReceipt } from '../../contract/orders';
import { errorMessage } from '../types';

export interface ReceiptInput {
  orderId: number;
}

export interface ReceiptContext {
  orderId: number;
  receipt: OrderReceipt | null;
  error: string | null;
}

export type ReceiptEvent = { type: 'receipt.opened' } | { type: 'receipt.closed' } | { type: 'receipt.retried' } | { type: 'receipt.refreshed' };

export const RECEIPT_FALLBACK = 'Failed to fetch the receipt';

export const receiptMachine = setup({
  types: {
    context: {} as ReceiptContext,
    events: {} as ReceiptEvent,
    input: {} as ReceiptInput,
  },
  actors: {
    fetchReceipt: fromPromise<OrderReceipt, { orderId: number }>(async () => {
      throw new Error('fetchReceipt must be provided');
    }),
  },
}).createMachine({
  id: 'receipt',
  context: ({ input }) => ({ orderId: input.orderId, receipt: null, error: null }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'receipt.opened': { target: 'loading', actions: assign({ error: null }) } },
    },
    loading: {
      invoke: {
        id: 'fetchReceipt',
        src: 'fetchReceipt',
        input: ({ context }) => ({ orderId: context.orderId }),
        onDone: { target: 'shown', actions: assign({ receipt: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error, RECEIPT_FALLBACK) }) },
      },
      on: { 'receipt.closed': 'closed' },
    },
    shown: {
      on: { 'receipt.closed': 'closed', 'receipt.refreshed': 'loading' },
    },
    failed: {
      on: { 'receipt.closed': 'closed', 'receipt.retried': 'loading' },
    },
  },
});
