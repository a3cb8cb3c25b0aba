/**
 * The receipt machine's effect: GET /api/platform/orders/{id}/receipt, checked with the
 * contract's schema (machines/receipt/receipt.machine.ts; docs/trading.md, "Receipts").
 */
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import { OrderReceiptSchema, type OrderReceipt } from '../../contract/orders';
import { RECEIPT_FALLBACK, receiptMachine } from '../../machines/receipt/receipt.machine';
import { ApiError, type HttpClient } from './http';

const ReceiptResponseSchema = v.object({ data: v.object({ receipt: OrderReceiptSchema }) });

export async function fetchReceipt(http: HttpClient, orderId: number): Promise<OrderReceipt> {
  const body = await http.request<unknown>(`/api/platform/orders/${encodeURIComponent(String(orderId))}/receipt`, { method: 'GET' });
  const parsed = v.safeParse(ReceiptResponseSchema, body);
  if (!parsed.success) throw new ApiError(400, RECEIPT_FALLBACK, { serverMessage: null, body });
  return parsed.output.data.receipt;
}

/** The receipt machine with its real effect. */
export function receiptLogic(http: HttpClient) {
  return receiptMachine.provide({
    actors: {
      fetchReceipt: fromPromise<OrderReceipt, { orderId: number }>(({ input }) => fetchReceipt(http, input.orderId)),
    },
  });
}
