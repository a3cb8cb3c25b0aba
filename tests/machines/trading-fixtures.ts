/**
 * Shared test data for the trading machines: pairs as init_pairs sends them, candles, and
 * orders in the wire shape of contract/orders.ts.
 */
import type { Candle, Pair } from '../../contract/market';
import type { CloseQuote, Order, OrderDetails } from '../../contract/orders';
import type { Timeframe } from '../../contract/user';

const ALL_TIMEFRAMES: Timeframe[] = ['5s', '15s', '30s', '1m', '5m', '15m', '1h'];

export function makePair(code: string, overrides: Partial<Pair> = {}): Pair {
  return {
    pair_code: code,
    pair_human_code: code.length === 6 ? `${code.slice(0, 3)}/${code.slice(3)}` : code,
    category: 'forex',
    payout_rate: 0.85,
    precision: 5,
    timeframes: ALL_TIMEFRAMES,
    logo: `pairs/${code}.svg`,
    ...overrides,
  };
}

export const EURUSD = makePair('EURUSD', { is_active: true, payout_rate: 0.92 });
export const BTCUSD = makePair('BTCUSD', { category: 'crypto', precision: 2, payout_rate: 0.8, timeframes: ['1m', '5m', '1h'] });
export const USDTRY = makePair('USDTRY', { is_active: false, payout_rate: 0.7, precision: 4 });
export const AAPL = makePair('AAPL', { category: 'stocks', precision: 2, pair_human_code: 'Apple' });

export function candle(timestamp: number, close: number, overrides: Partial<Candle> = {}): Candle {
  return {
    pair_code: 'EURUSD',
    timeframe: '1m',
    timestamp,
    open: close - 0.0001,
    high: close + 0.0002,
    low: close - 0.0002,
    close,
    volume: 10,
    ...overrides,
  };
}

let nextId = 100;
export function makeOrder(overrides: Partial<Order> = {}): Order {
  const id = overrides.order_id ?? nextId++;
  const amount = overrides.amount ?? 10;
  const open = overrides.open_price ?? 1.16;
  return {
    order_id: id,
    pair_code: 'EURUSD',
    pair: 'EURUSD',
    pair_human_code: 'EUR/USD',
    direction: 'up',
    trading_account: 'DemoAccount',
    balance_type: 'DemoBalance',
    status: 'open',
    result: null,
    currency: 'USD',
    amount,
    amount_in_user_currency: amount,
    currency_amount: amount / open,
    open_price: open,
    close_price: null,
    current_price: open,
    price_precision: 5,
    payout_rate: 0.92,
    potential_return: 19.2,
    profit_loss: null,
    payout: null,
    expiry_seconds: 60,
    created_at: 1_795_334_866,
    expires_at: 1_795_334_926,
    close_time: null,
    created_at_ms: 1_795_334_866_056,
    expires_at_ms: 1_795_334_926_056,
    is_closed: false,
    is_manual: false,
    close_reason: null,
    entry_tick: { time: 1_795_334_866_001, seq: 1183, price: open },
    exit_tick: null,
    ...overrides,
  };
}

export function settled(order: Order, result: NonNullable<Order['result']>, payout: number): Order {
  return {
    ...order,
    status: 'closed',
    result,
    is_closed: true,
    payout,
    profit_loss: Math.round((payout - order.amount) * 100) / 100,
    close_price: order.open_price,
    close_time: order.expires_at,
    close_reason: result === 'closed_early' ? 'early_close' : result === 'refunded' ? 'no_price_at_expiry' : 'expiry',
  };
}

export function quote(amount: number, overrides: Partial<CloseQuote> = {}): CloseQuote {
  return { amount, currency: 'USD', quoted_at: 1_795_334_900_000, valid_for_ms: 3000, ...overrides };
}

export function details(order: Order, closeQuote: CloseQuote | null): OrderDetails {
  return { ...order, close_quote: closeQuote };
}
