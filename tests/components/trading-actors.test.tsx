/**
 * The orders machine's look-up of settlements it missed (src/services/trading-actors.ts): the
 * orders found by id, the server's text when none could be read.
 */
import { describe, expect, it } from 'vitest';
import type { OrderDetails } from '../../contract/orders';
import { fetchOrdersById } from '../../src/services/trading-actors';
import { ApiError } from '../../src/services/http';
import { details, makeOrder, settled } from '../machines/trading-fixtures';

const won = details(settled(makeOrder({ order_id: 1 }), 'won', 19.2), null);
const lost = details(settled(makeOrder({ order_id: 2 }), 'lost', 0), null);

function api(answers: Record<number, OrderDetails | Error>) {
  const asked: number[] = [];
  return {
    asked,
    getOrder(id: number): Promise<OrderDetails> {
      asked.push(id);
      const answer = answers[id];
      return answer instanceof Error || answer === undefined ? Promise.reject(answer ?? new Error('missing')) : Promise.resolve(answer);
    },
  };
}

describe('fetchOrdersById', () => {
  it('answers the orders that could be read, skipping the others', async () => {
    const server = api({ 1: won, 2: lost, 3: new ApiError(404, 'Order not found', { serverMessage: 'Order not found', body: null }) });
    expect(await fetchOrdersById(server, [1, 3, 2])).toEqual([won, lost]);
    expect(server.asked).toEqual([1, 3, 2]);
  });

  it('fails with the server text when none could be read, so the machine asks again later', async () => {
    const server = api({ 3: new ApiError(503, 'Failed to fetch order details', { serverMessage: 'Service unavailable', body: null }) });
    await expect(fetchOrdersById(server, [3])).rejects.toThrow('Service unavailable');
    expect(await fetchOrdersById(server, [])).toEqual([]);
  });
});
