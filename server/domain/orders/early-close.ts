/**
 * Early close (POST /api/platform/orders/{id}/close): the owner closes an open order before
 * expiry and receives its fair value (pricing.ts) computed at that moment from the latest tick.
 * The payout uses the settlement's ledger key `order:<id>:settle`, and the row moves only
 * `where status = 'open'`, so an early close and a settlement can never both pay. Closing twice
 * is idempotent: the second call on an order this user already closed early returns it as it is.
 */
import { findCurrency } from '../../../contract/currencies';
import { fromMinor, toMinor } from '../../../contract/money';
import { CLOSE_QUOTE_VALID_MS, OrderErrorText, type CloseOrder, type CloseQuote, type OrderDirection } from '../../../contract/orders';
import { conflict, invalid, notFound } from '../errors';
import { recordEvent } from '../events';
import { postLedger, tradingCounterparty, withCounterparty, type Account } from '../ledger';
import type { Tick } from '../market/types';
import type { OrdersDeps } from './deps';
import { freshTick } from './placement';
import { earlyCloseValue } from './pricing';
import { closeEarly, findOwnOrder, requireOrder } from './repository';
import { settleKey } from './settle-order';
import type { OrderRow } from './wire';

/**
 * The early-close value of an open order now, in minor units, with the tick it is priced on;
 * null when it cannot be closed early (closed, expired, or no fresh price).
 */
export function closeValueNow(deps: OrdersDeps, row: OrderRow, now: number): { value: number; tick: Tick } | null {
  if (row.status !== 'open' || now >= Number(row.expires_at)) return null;
  const tick = freshTick(deps.market, row.pair_code, now);
  if (!tick) return null;
  return { value: closeValueAt(row, tick.price, deps.market.volatility(row.pair_code), now), tick };
}

/** The early-close value (minor units) of an order at `atMs`, priced on `spot` with volatility `sigma`. */
export function closeValueAt(
  row: Pick<OrderRow, 'stake' | 'payout_rate_bp' | 'direction' | 'open_price' | 'expires_at'>,
  spot: number,
  sigma: number,
  atMs: number,
): number {
  return earlyCloseValue(Number(row.stake), Number(row.payout_rate_bp), {
    direction: row.direction as OrderDirection,
    spot,
    strike: Number(row.open_price),
    sigma,
    secondsLeft: (Number(row.expires_at) - atMs) / 1000,
  });
}

/** The indicative quote shown with an open order (GET /orders/{id}); null for a closed one. */
export function closeQuote(deps: OrdersDeps, row: OrderRow): CloseQuote | null {
  const now = deps.now();
  const q = closeValueNow(deps, row, now);
  if (!q) return null;
  const decimals = findCurrency(row.currency)?.decimals ?? 2;
  return { amount: fromMinor(q.value, decimals), currency: row.currency, quoted_at: now, valid_for_ms: CLOSE_QUOTE_VALID_MS };
}

export async function closeOrderEarly(deps: OrdersDeps, userId: number, orderId: number, input: CloseOrder): Promise<OrderRow> {
  const row = await findOwnOrder(deps.db, userId, orderId);
  if (!row) throw notFound(OrderErrorText.orderNotFound);
  if (input.currency !== undefined && input.currency !== row.currency) throw invalid(OrderErrorText.currencyMismatch);
  if (row.status === 'closed') return alreadyClosed(row);

  const currency = findCurrency(row.currency);
  const decimals = currency?.decimals ?? 2;
  let expectedMin: number | null = null;
  if (input.expected_min !== undefined) {
    expectedMin = toMinor(input.expected_min, decimals);
    if (expectedMin === null) throw invalid(`expected_min may have at most ${decimals} decimals in ${row.currency}`);
  }

  const now = deps.now();
  if (now >= Number(row.expires_at)) throw conflict(OrderErrorText.expiring);
  const quote = closeValueNow(deps, row, now);
  if (!quote) throw conflict(OrderErrorText.priceUnavailable);
  if (expectedMin !== null && quote.value < expectedMin) throw conflict(OrderErrorText.priceChanged);

  const closed = await deps.tx(async (trx) => {
    const closedNow = await closeEarly(trx, orderId, {
      close_price: quote.tick.price,
      exit_tick_time: quote.tick.time,
      exit_tick_seq: quote.tick.seq,
      payout: quote.value,
      closed_at: now,
    });
    if (!closedNow) return null;
    await deps.market.logTick(trx, quote.tick);
    if (quote.value > 0) {
      await postLedger(
        trx,
        {
          key: settleKey(orderId),
          kind: 'order_early_close',
          userId,
          ref: { type: 'order', id: orderId },
          entries: withCounterparty(tradingCounterparty(row.account as Account), [{ currency: row.currency, account: row.account as Account, amount: quote.value }]),
        },
        now,
      );
    }
    await recordEvent(
      trx,
      'order.settled',
      userId,
      { order_id: orderId, result: 'closed', payout: fromMinor(quote.value, decimals), currency: row.currency },
      now,
    );
    return requireOrder(trx, orderId);
  });
  if (closed) return closed;
  // Another request closed it between our read and our write (a concurrent retry, or expiry).
  const after = await requireOrder(deps.db, orderId);
  return alreadyClosed(after);
}

/** A retried early close gets the order it closed; a settled order cannot be closed. */
function alreadyClosed(row: OrderRow): OrderRow {
  if (row.result === 'closed_early') return row;
  throw conflict(OrderErrorText.alreadyClosed);
}
