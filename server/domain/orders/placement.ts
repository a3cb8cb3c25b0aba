/**
 * Placing an order (POST /api/v2/orders): check the pair and its price, then in ONE write
 * transaction insert the order (open price = the latest tick at acceptance), debit the stake
 * through the ledger (key `order:<id>:stake`) and write the entry tick into the tick log. A
 * `client_request_id` makes the request safe to retry: the same (user, id) returns the order
 * created the first time, without a second debit, even when both requests arrive together
 * (checked again inside the serialized transaction, backed by a unique index for databases that
 * do not serialize writers).
 */
import { ErrorText } from '../../../contract/envelope';
import { findCurrency } from '../../../contract/currencies';
import { toMinor } from '../../../contract/money';
import { OrderErrorText, type CreateOrder } from '../../../contract/orders';
import type { Trx } from '../../db';
import { conflict, invalid, notFound } from '../errors';
import { recordEvent } from '../events';
import { InsufficientBalanceError, postLedger, tradingCounterparty, withCounterparty } from '../ledger';
import type { MarketService, Tick } from '../market/types';
import type { OrdersDeps } from './deps';
import type { Replayable } from '../results';
import { isUniqueViolation } from '../../db/errors';
import { toBasisPoints } from './pricing';
import { checkPairRisk } from './exposure';
import { findOrderByRequestId, storeOrder, type NewOrder } from './repository';
import { ledgerAccount, type OrderRow } from './wire';

export const stakeKey = (orderId: number) => `order:${orderId}:stake`;

/**
 * The pair's latest tick when it is fresh enough to trade on, else undefined. A tick older than
 * the pair's stale limit (STALE_QUOTE_MS per category, docs/market.md) is not a price to trade
 * on: the feed has stalled or the market is closed, and the real price may have moved (betting
 * on a known move). The pair is suspended until a fresh tick arrives.
 */
export function freshTick(market: MarketService, pairCode: string, now: number): Tick | undefined {
  const tick = market.latestTick(pairCode);
  return tick && now - tick.time <= market.staleLimitMs(pairCode) ? tick : undefined;
}

/**
 * Who places the order: a user id, or an access token whose session is still to be read
 * (http/auth.ts `requireToken`). That read then runs as the order transaction's first statement
 * instead of a read transaction of its own before it (docs/performance.md, "Twelfth pass"); a
 * dead session throws its 401 before anything is written.
 */
export type Placer = number | { verify(db: Trx): Promise<{ userId: number }> };

const userOf = async (who: Placer, db: Trx): Promise<number> => (typeof who === 'number' ? who : (await who.verify(db)).userId);

export async function placeOrder(deps: OrdersDeps, who: Placer, input: CreateOrder): Promise<Replayable<OrderRow>> {
  const currency = findCurrency(input.currency);
  const stake = currency ? toMinor(input.amount, currency.decimals) : null;
  // The contract schema has already refused these; this guards a caller that skipped it.
  if (!currency || stake === null || stake <= 0) throw invalid('Invalid amount');
  const account = ledgerAccount(input.trading_account);
  const requestId = input.client_request_id ?? null;

  const pair = deps.market.pairTerms(input.pair_code);
  const tradable = pair !== undefined && pair.is_active !== false;
  const tick = tradable ? freshTick(deps.market, pair.pair_code, deps.now()) : undefined;
  if (!tradable || !tick) {
    // The session first: a dead one is a 401 here too, not the pair's answer.
    const userId = await userOf(who, deps.db);
    // A retry of an order placed before its pair closed or its quotes stopped answers that
    // order. Only here is the request id looked up before the transaction: a new order (the
    // SPA sends an id with every one) is checked once, inside it.
    if (requestId) {
      const earlier = await findOrderByRequestId(deps.db, userId, requestId);
      if (earlier) return { value: sameRequestOrThrow(earlier, input, stake), created: false };
    }
    if (!tradable) throw notFound(ErrorText.pairNotFound);
    // A pair that had quotes and lost them is suspended (quotes delayed); one never quoted has no price.
    throw conflict(deps.market.latestTick(pair.pair_code) ? OrderErrorText.quotesDelayed : OrderErrorText.priceUnavailable);
  }

  // Known once the transaction has read the session (always, for a user id).
  let userId = typeof who === 'number' ? who : undefined;
  try {
    return await deps.tx(async (trx) => {
      userId = await userOf(who, trx);
      // A retry (same user and request id) answers the order made the first time, unchanged.
      if (requestId) {
        const earlier = await findOrderByRequestId(trx, userId, requestId);
        if (earlier) return { value: sameRequestOrThrow(earlier, input, stake), created: false };
      }
      // The pair's risk limit (exposure.ts, docs/money.md): refused before anything is written.
      await checkPairRisk(trx, { pairCode: pair.pair_code, direction: input.direction, account, currency: currency.iso_code, stake, payoutRateBp: toBasisPoints(pair.payout_rate) }, deps.riskMaxPairLossUsd, deps.fx.perUsd);
      const acceptedAt = deps.now();
      const payoutRateBp = toBasisPoints(pair.payout_rate);
      const order: NewOrder = {
        user_id: userId,
        client_request_id: requestId,
        pair_code: pair.pair_code,
        pair_human_code: pair.pair_human_code,
        direction: input.direction,
        account,
        currency: currency.iso_code,
        stake,
        payout_rate_bp: payoutRateBp,
        price_precision: pair.precision,
        expiry_seconds: input.expiry,
        accepted_at: acceptedAt,
        expires_at: acceptedAt + input.expiry * 1000,
        open_price: tick.price,
        entry_tick_time: tick.time,
        entry_tick_seq: tick.seq,
      };
      const inserted = await storeOrder(trx, order);
      // The entry tick goes into the tick log with the order (the market's batched write may
      // not happen before a crash), so the log can always be read back from it.
      await deps.market.logTick(trx, tick);
      await postLedger(
        trx,
        {
          key: stakeKey(inserted.id),
          kind: 'order_stake',
          userId,
          ref: { type: 'order', id: inserted.id },
          entries: withCounterparty(tradingCounterparty(account), [{ currency: currency.iso_code, account, amount: -stake }]),
        },
        acceptedAt,
      );
      await recordEvent(trx, 'order.opened', userId, { order_id: inserted.id }, acceptedAt);
      return { value: inserted, created: true };
    });
  } catch (err) {
    if (err instanceof InsufficientBalanceError) throw invalid(ErrorText.insufficientBalance);
    if (requestId && userId !== undefined && isUniqueViolation(err)) {
      // Another writer inserted the same request id between our check and our insert.
      const earlier = await findOrderByRequestId(deps.db, userId, requestId);
      if (earlier) return { value: sameRequestOrThrow(earlier, input, stake), created: false };
    }
    throw err;
  }
}

/** A request id names one order: reusing it for a different order is a client bug, not a retry. */
function sameRequestOrThrow(row: OrderRow, input: CreateOrder, stake: number): OrderRow {
  const same =
    row.pair_code.toLowerCase() === input.pair_code.toLowerCase() &&
    row.direction === input.direction &&
    row.account === ledgerAccount(input.trading_account) &&
    row.currency === input.currency &&
    Number(row.stake) === stake &&
    Number(row.expiry_seconds) === input.expiry;
  if (!same) throw conflict(OrderErrorText.requestIdReused);
  return row;
}

