/**
 * Orders between the database and the wire: the stored row type, the account names each side
 * uses, the win/tie/loss rule at the pair's precision, and the row -> wire Order mapping
 * (contract/orders.ts). Amounts leave here as decimals; inside they stay minor units.
 */
import { sql, type Selectable } from 'kysely';
import type { OrdersTable } from '../../db/tables/orders';
import type { Account } from '../ledger';
import type { Tick } from '../market/types';
import type { Order, OrderDirection, OrderResult, TradingAccount } from '../../../contract/orders';
import { findCurrency } from '../../../contract/currencies';
import { fromMinor } from '../../../contract/money';
import { winPayout } from './pricing';

export type OrderRow = Selectable<OrdersTable>;

/**
 * The order statuses as SQL literals, for the queries on `orders` that search by something other
 * than the primary key (a lookup by id takes SQLite's rowid path, which weighs no index: there a
 * bound status costs nothing, and the close and early-close updates keep one).
 * `orders` has partial indexes of its open orders (`orders_open_expiry`, `orders_open_pair`:
 * migration 014). With a bound status SQLite still finds them, but only by comparing the bound
 * value while planning: binding a new value then expires the statement, and it is parsed and
 * planned again on every run (~5-10 us; docs/database.md). A literal is planned once.
 */
export const OPEN = sql.lit('open');
export const CLOSED = sql.lit('closed');

export function ledgerAccount(tradingAccount: TradingAccount): Extract<Account, 'real' | 'demo'> {
  return tradingAccount === 'RealAccount' ? 'real' : 'demo';
}

export function tradingAccountOf(account: string): TradingAccount {
  return account === 'real' ? 'RealAccount' : 'DemoAccount';
}

/** Prices as integers at the pair's precision, so 1.1000000000000001 and 1.1 are the same price. */
export function priceUnits(price: number, precision: number): number {
  return Math.round(price * 10 ** precision);
}

/** Win when the price moved the chosen way, tie when it did not move at the pair's precision. */
export function outcomeOf(direction: OrderDirection, open: number, close: number, precision: number): 'won' | 'lost' | 'tie' {
  const o = priceUnits(open, precision);
  const c = priceUnits(close, precision);
  if (c === o) return 'tie';
  return (direction === 'up') === c > o ? 'won' : 'lost';
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * The wire order; `latest` is the pair's newest tick (current_price of an open order); `perUsd`
 * the order currency's units per 1 USD at the platform's prices (deps.fx, server/domain/market/fx.ts:
 * the market's latest price where a pair exists, the configured rate only where none does), for
 * the spec's currency_amount.
 */
export function toWireOrder(row: OrderRow, latest: Tick | undefined, perUsd: number): Order {
  const currency = findCurrency(row.currency);
  const decimals = currency?.decimals ?? 2;
  const rate = perUsd > 0 && Number.isFinite(perUsd) ? perUsd : (currency?.rate ?? 1);
  const stake = Number(row.stake);
  const open = Number(row.open_price);
  const closed = row.status === 'closed';
  const payout = row.payout === null ? null : Number(row.payout);
  const amount = fromMinor(stake, decimals);
  const exitTime = row.exit_tick_time === null ? null : Number(row.exit_tick_time);
  return {
    order_id: row.id,
    pair_code: row.pair_code,
    pair: row.pair_code,
    pair_human_code: row.pair_human_code,
    direction: row.direction as OrderDirection,
    trading_account: tradingAccountOf(row.account),
    balance_type: row.account === 'real' ? 'RealBalance' : 'DemoBalance',
    status: closed ? 'closed' : 'open',
    result: (row.result as OrderResult | null) ?? null,
    currency: row.currency,
    amount,
    amount_in_user_currency: amount,
    currency_amount: amount / (open * rate),
    open_price: open,
    close_price: row.close_price === null ? null : Number(row.close_price),
    current_price: closed ? (row.close_price === null ? null : Number(row.close_price)) : (latest?.price ?? null),
    price_precision: Number(row.price_precision),
    payout_rate: Number(row.payout_rate_bp) / 10_000,
    potential_return: fromMinor(winPayout(stake, Number(row.payout_rate_bp)), decimals),
    profit_loss: closed && payout !== null ? fromMinor(payout - stake, decimals) : null,
    payout: closed && payout !== null ? fromMinor(payout, decimals) : null,
    expiry_seconds: Number(row.expiry_seconds),
    created_at: seconds(Number(row.accepted_at)),
    expires_at: seconds(Number(row.expires_at)),
    close_time: row.closed_at === null ? null : seconds(Number(row.closed_at)),
    created_at_ms: Number(row.accepted_at),
    expires_at_ms: Number(row.expires_at),
    is_closed: closed,
    is_manual: Number(row.is_manual) === 1,
    close_reason: (row.close_reason as Order['close_reason']) ?? null,
    entry_tick: { time: Number(row.entry_tick_time), seq: Number(row.entry_tick_seq), price: open },
    exit_tick:
      exitTime === null || row.close_price === null
        ? null
        : { time: exitTime, seq: Number(row.exit_tick_seq), price: Number(row.close_price) },
  };
}
