/**
 * What an open order would bring if it ended now: the headline of its card. A binary option
 * pays all or nothing, so the spec's live estimate (the stake's value change with the price,
 * see `liveEstimate` in the orders machine) is a few cents at most and says little; what a
 * trader wants to see is the result at the current price, decided the way the server settles
 * (prices compared at the pair's precision):
 * - in the money (the price moved the chosen way): the profit of a win, potential return less
 *   the stake (stake x payout rate, rounded toward zero like the server);
 * - out of the money: the stake is lost;
 * - at the open price: a tie, the stake comes back (0).
 */
import { findCurrency } from '../../../contract/currencies';
import { fromMinor, toMinor } from '../../../contract/money';
import type { Order } from '../../../contract/orders';

export type OutcomeKind = 'win' | 'loss' | 'tie';

export interface OrderOutcome {
  kind: OutcomeKind;
  /** Profit (win, > 0), minus the stake (loss, < 0) or 0 (tie), decimal in the order's currency. */
  amount: number;
}

type OutcomeOrder = Pick<Order, 'direction' | 'open_price' | 'price_precision' | 'amount' | 'potential_return' | 'currency'>;

/** Prices as integers at the pair's precision (1.1000000000000001 and 1.1 are the same price). */
function priceUnits(price: number, precision: number): number {
  return Math.round(price * 10 ** precision);
}

/** The result if `order` ended at `price` (null without a usable price). */
export function outcomeIfEndedNow(order: OutcomeOrder, price: number | null | undefined): OrderOutcome | null {
  if (price === null || price === undefined || !Number.isFinite(price)) return null;
  const open = priceUnits(order.open_price, order.price_precision);
  const now = priceUnits(price, order.price_precision);
  if (now === open) return { kind: 'tie', amount: 0 };
  const inTheMoney = order.direction === 'up' ? now > open : now < open;
  if (!inTheMoney) return { kind: 'loss', amount: -order.amount };
  const decimals = findCurrency(order.currency)?.decimals ?? 2;
  const stake = toMinor(order.amount, decimals) ?? Math.round(order.amount * 10 ** decimals);
  const potential = toMinor(order.potential_return, decimals) ?? Math.round(order.potential_return * 10 ** decimals);
  return { kind: 'win', amount: fromMinor(Math.max(0, potential - stake), decimals) };
}
