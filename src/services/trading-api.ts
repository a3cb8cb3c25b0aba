/**
 * The REST calls of the trading screen (spec section 7, Orders; docs/api.md "Orders"): place an
 * order, list orders, one order with its close quote, close early. Each answer is checked with
 * the contract's schema; a failure carries the server's text, or the spec's fallback ("Failed
 * to create order", "Failed to fetch orders", "Failed to fetch order details", "Failed to close
 * order") with `serverMessage: null` so the machines can show their own translated text.
 */
import * as v from 'valibot';
import {
  OrderDetailsResponseSchema,
  OrderListResponseSchema,
  OrderResponseSchema,
  type CloseOrderInput,
  type CreateOrderInput as CreateOrderBody,
  type Order,
  type OrderDetails,
  type OrderListResponse,
} from '../../contract/orders';
import type { FetchOrdersInput } from '../../machines/orders/orders.machine';
import type { HttpClient, RequestOptions } from './http';
import { apiClient, checked, field } from './api-client';

export const TRADING_FALLBACK = {
  createOrder: 'Failed to create order',
  fetchOrders: 'Failed to fetch orders',
  fetchOrder: 'Failed to fetch order details',
  closeOrder: 'Failed to close order',
} as const;

export function createTradingApi(http: HttpClient) {
  const client = apiClient(http);
  /** The answer's data checked with the contract's schema. */
  async function call<S extends v.GenericSchema>(fallback: string, schema: S, path: string, options: RequestOptions): Promise<v.InferOutput<S>> {
    const body = await client.call(fallback, path, options);
    return checked(schema, fallback, field(body, 'data'), body);
  }

  return {
    /** POST /api/v2/orders; the same client_request_id always answers with the same order. */
    async createOrder(body: CreateOrderBody & { client_request_id: string }): Promise<Order> {
      const { order } = await call(TRADING_FALLBACK.createOrder, OrderResponseSchema, '/api/v2/orders', { method: 'POST', body });
      return order;
    },

    /** GET /api/platform/orders */
    listOrders(query: FetchOrdersInput): Promise<OrderListResponse> {
      return call(TRADING_FALLBACK.fetchOrders, OrderListResponseSchema, '/api/platform/orders', { method: 'GET', query: { ...query } });
    },

    /** GET /api/platform/orders/{id}: the order and, while it can be closed, its close quote. */
    async getOrder(orderId: number): Promise<OrderDetails> {
      const { order } = await call(TRADING_FALLBACK.fetchOrder, OrderDetailsResponseSchema, `/api/platform/orders/${encodeURIComponent(String(orderId))}`, {
        method: 'GET',
      });
      return order;
    },

    /** POST /api/platform/orders/{id}/close */
    async closeOrder(orderId: number, body: CloseOrderInput): Promise<Order> {
      const { order } = await call(TRADING_FALLBACK.closeOrder, OrderResponseSchema, `/api/platform/orders/${encodeURIComponent(String(orderId))}/close`, {
        method: 'POST',
        body,
      });
      return order;
    },
  };
}

export type TradingApi = ReturnType<typeof createTradingApi>;
