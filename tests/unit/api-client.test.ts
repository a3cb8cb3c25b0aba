/**
 * The one API client helper (src/services/api-client.ts) under every REST module: a failure
 * without server text carries the call's fallback, a server text wins, an answer without
 * `success` or with the wrong shape is refused with the fallback. Checked through the receipt
 * call, which is built on it.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, type HttpClient } from '../../src/services/http';
import { fetchReceipt } from '../../src/services/receipt-actors';
import { RECEIPT_FALLBACK } from '../../machines/receipt/receipt.machine';

const answering = (answer: () => Promise<unknown>): HttpClient & { paths: string[] } => {
  const paths: string[] = [];
  return { paths, request: (path) => (paths.push(path), answer()) as Promise<never>, setAuth: () => {} };
};

describe('api client helper', () => {
  it('fails with the fallback when the server gave no text, and with the server text when it did', async () => {
    await expect(fetchReceipt(answering(() => Promise.reject(new ApiError(0, 'Network Error', { serverMessage: null }))), 7)).rejects.toMatchObject({
      status: 0,
      message: RECEIPT_FALLBACK,
    });
    await expect(fetchReceipt(answering(() => Promise.reject(new ApiError(404, 'Order not found', { serverMessage: 'Order not found' }))), 7)).rejects.toMatchObject({
      status: 404,
      message: 'Order not found',
    });
  });

  it('refuses an answer without success or with the wrong shape', async () => {
    await expect(fetchReceipt(answering(() => Promise.resolve({ data: { receipt: {} } })), 7)).rejects.toMatchObject({ status: 400, message: RECEIPT_FALLBACK });
    await expect(fetchReceipt(answering(() => Promise.resolve({ success: true, data: { receipt: { order_id: 'x' } } })), 7)).rejects.toMatchObject({ message: RECEIPT_FALLBACK });
    const http = answering(() => Promise.resolve({ success: true, data: null }));
    await expect(fetchReceipt(http, 7)).rejects.toMatchObject({ message: RECEIPT_FALLBACK });
    expect(http.paths).toEqual(['/api/platform/orders/7/receipt']);
  });
});
