/**
 * The headline of an open order card: the result if the order ended at the current price
 * (win: stake x payout, loss: minus the stake, tie at the open price: 0), decided like the
 * server's settlement, at the pair's precision.
 */
import { describe, expect, it } from 'vitest';
import { outcomeIfEndedNow } from '../../src/features/trading/order-outcome';
import { liveEstimate } from '../../machines/orders/orders.machine';
import { makeOrder } from '../machines/trading-fixtures';

const up = makeOrder({ direction: 'up', amount: 10, potential_return: 19.2, open_price: 1.15981, price_precision: 5, currency: 'USD' });
const down = { ...up, direction: 'down' as const };

describe('the result if an open order ended now', () => {
  it('pays stake x payout in the money, loses the stake out of it, returns it at the open price', () => {
    expect(outcomeIfEndedNow(up, 1.15982)).toEqual({ kind: 'win', amount: 9.2 });
    expect(outcomeIfEndedNow(up, 1.1598)).toEqual({ kind: 'loss', amount: -10 });
    expect(outcomeIfEndedNow(up, 1.15981)).toEqual({ kind: 'tie', amount: 0 });
    expect(outcomeIfEndedNow(down, 1.1598)).toEqual({ kind: 'win', amount: 9.2 });
    expect(outcomeIfEndedNow(down, 1.15982)).toEqual({ kind: 'loss', amount: -10 });
  });

  it('compares prices at the pair precision, like the server', () => {
    // Below the 5th decimal: the same price, a tie.
    expect(outcomeIfEndedNow(up, 1.159814)).toEqual({ kind: 'tie', amount: 0 });
    expect(outcomeIfEndedNow(up, 1.159806)).toEqual({ kind: 'tie', amount: 0 });
    expect(outcomeIfEndedNow({ ...up, open_price: 152.477, price_precision: 3 }, 152.478)?.kind).toBe('win');
  });

  it('computes money in minor units (no float noise) and in the currency decimals', () => {
    expect(outcomeIfEndedNow({ ...up, amount: 10.01, potential_return: 19.21 }, 2)).toEqual({ kind: 'win', amount: 9.2 });
    expect(outcomeIfEndedNow({ ...up, amount: 0.1, potential_return: 0.3 }, 2)).toEqual({ kind: 'win', amount: 0.2 });
    expect(outcomeIfEndedNow({ ...up, currency: 'BTC', amount: 0.0001, potential_return: 0.000192 }, 2)).toEqual({ kind: 'win', amount: 0.000092 });
  });

  it('has no result without a price', () => {
    expect(outcomeIfEndedNow(up, undefined)).toBeNull();
    expect(outcomeIfEndedNow(up, null)).toBeNull();
    expect(outcomeIfEndedNow(up, Number.NaN)).toBeNull();
  });

  it('is what a trader needs where the spec estimate rounds to nothing', () => {
    // The spec's estimate for the same tick: the stake's value change, a cent at most.
    const order = { ...up, currency_amount: 10 / 1.15981, amount_in_user_currency: 10 };
    expect(liveEstimate(order, 1.15982, 1)).toBe(0);
    expect(outcomeIfEndedNow(order, 1.15982)?.amount).toBe(9.2);
  });
});
