/**
 * The receipt machine's effect: GET /api/platform/orders/{id}/receipt, checked with the
 * contract's schema (machines/receipt/receipt.machine.ts; docs/trading.md, "Receipts").
 */
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import { OrderReceiptSchema, type OrderReceipt } from '../../contract/orders';
import { RECEIPT_FALLBACK, receiptMachine } from '../../machines/receipt/receipt.machine';
import type { HttpClient } from './http';
import { apiClient } from './api-client';

const ReceiptDataSchema = v.object({ receipt: OrderReceiptSchema });

/** Built on the one API client helper: a failure carries the server's text or the fallback. */
export async function fetchReceipt(http: HttpClient, orderId: number): Promise<OrderReceipt> {
  const path = `/api/platform/orders/${encodeURIComponent(String(orderId))}/receipt`;
  const { receipt } = await apiClient(http).parsed(ReceiptDataSchema, RECEIPT_FALLBACK, path, { method: 'GET' });
  return receipt;
}

/** The receipt machine with its real effect. */
export function receiptLogic(http: HttpClient) {
  return receiptMachine.provide({
    actors: {
      fetchReceipt: fromPromise<OrderReceipt, { orderId: number }>(({ input }) => fetchReceipt(http, input.orderId)),
    },
  });
}
