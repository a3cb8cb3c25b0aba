/**
 * The socket routing table of the app machine: where each incoming socket event goes (the
 * systemId of the child that owns it) and the event it becomes there. Every payload is
 * validated with the contract's schema; a malformed push becomes null and is dropped. Pure data
 * and small pure functions, kept apart from app.machine.ts so the machine's file stays a
 * machine (the Stately editor reads it as written).
 */
import * as v from 'valibot';
import type { EventObject } from 'xstate';
import { CurrencySchema, RateTableSchema } from '../../contract/currencies';
import { PairStatusSchema } from '../../contract/market';
import { BalancesSchema } from '../../contract/user';
import { DocumentStatusUpdateEventSchema } from '../../contract/profile';
import { InitPaymentSystemsSchema, PaymentStatusUpdateEventSchema } from '../../contract/payments';
import { OrderUpdateEventSchema } from '../../contract/orders';
import { InitCandlesSchema, InitPairsSchema, NewPriceSchema, PairsRatesSchema, PollingStatusSchema, PongSchema, PriceUpdateSchema, SocketErrorSchema } from '../../contract/socket';
import type { SocketEvent } from '../socket/socket.machine';
import type { BalanceEvent } from '../balance/balance.machine';
import type { SessionEvent } from '../session/session.machine';
import type { DocumentsEvent } from '../documents/documents.machine';
import type { PaymentMethodsEvent } from '../payment-methods/payment-methods.machine';
import type { DepositEvent } from '../deposit/deposit.machine';
import type { WithdrawEvent } from '../withdraw/withdraw.machine';
import type { TransactionsEvent } from '../transactions/transactions.machine';
import type { PairsEvent } from '../pairs/pairs.machine';
import type { ChartEvent } from '../chart/chart.machine';
import type { OrdersEvent } from '../orders/orders.machine';
import { PriceAlertEventSchema } from '../../contract/alerts';
import type { PriceAlertsEvent } from '../price-alerts/price-alerts.machine';
import type { TraderPrefsEvent } from '../trader-prefs/trader-prefs.machine';
import { SupportUpdateEventSchema } from '../../contract/support';
import type { SupportEvent } from '../support/support.machine';

/**
 * Where each incoming socket event goes: the systemId of its owner and the event it becomes
 * (null when the payload does not validate, so a malformed push is dropped). A feature that owns
 * live data adds its routes here, e.g. init_pairs / pairs_rates / price_update to 'pairs',
 * new_price / init_candles to its candles actor, payment_status_update to 'payments'. Every
 * message is emitted as `socket.received` as well, routed or not.
 */
export interface SocketRoute {
  to: string;
  toEvent: (payload: unknown) => EventObject | null;
}

const UserdataPayload = v.object({
  userdata: v.object({ balances: BalancesSchema }),
  valuts: v.optional(v.array(CurrencySchema)),
  rates: v.optional(RateTableSchema),
});
const UpdateBalancesPayload = v.object({ balances: BalancesSchema });
const InitValutsPayload = v.object({ valuts_data: v.array(CurrencySchema) });

/** payment_status_update -> its event for the deposit, withdraw and transactions actors. */
function paymentStatusRoute<E extends EventObject>(to: string, make: (update: { transactionId: number; status: PaymentStatus; transactionType?: 'deposit' | 'withdrawal' }) => E): SocketRoute {
  return {
    to,
    toEvent: (payload): E | null => {
      const parsed = v.safeParse(PaymentStatusUpdateEventSchema, payload);
      if (!parsed.success) return null;
      const { id, status, transaction_type } = parsed.output.transaction;
      return make({ transactionId: id, status, transactionType: transaction_type });
    },
  };
}
type PaymentStatus = v.InferOutput<typeof PaymentStatusUpdateEventSchema>['transaction']['status'];

/** init_pairs (on connect) and pairs (the pair list changed): the new list for the pairs actor. */
const pairsListRoute: SocketRoute = {
  to: 'pairs',
  toEvent: (payload): PairsEvent | null => {
    const parsed = v.safeParse(InitPairsSchema, payload);
    return parsed.success ? { type: 'pairs.pairsReceived', pairs: parsed.output.pairs } : null;
  },
};

export const SOCKET_ROUTES: Record<string, SocketRoute[]> = {
  init_pairs: [pairsListRoute],
  pairs: [pairsListRoute],
  pong: [
    {
      to: 'socket',
      toEvent: (payload): SocketEvent | null => {
        const parsed = v.safeParse(PongSchema, payload ?? {});
        return parsed.success ? { type: 'socket.pongReceived', time: parsed.output.time ?? null } : null;
      },
    },
  ],
  pairs_rates: [
    {
      to: 'pairs',
      toEvent: (payload): PairsEvent | null => {
        const parsed = v.safeParse(PairsRatesSchema, payload);
        return parsed.success ? { type: 'pairs.ratesReceived', rates: parsed.output.rates } : null;
      },
    },
  ],
  price_update: [
    {
      to: 'pairs',
      toEvent: (payload): PairsEvent | null => {
        const parsed = v.safeParse(PriceUpdateSchema, payload);
        return parsed.success ? { type: 'pairs.priceUpdated', pairCode: parsed.output.pair_code, price: parsed.output.price } : null;
      },
    },
  ],
  pair_status: [
    {
      to: 'pairs',
      toEvent: (payload): PairsEvent | null => {
        const parsed = v.safeParse(PairStatusSchema, payload);
        return parsed.success ? { type: 'pairs.statusReceived', pairCode: parsed.output.pair_code, quotes: parsed.output.quotes } : null;
      },
    },
  ],
  init_candles: [
    {
      to: 'chart',
      toEvent: (payload): ChartEvent | null => {
        const parsed = v.safeParse(InitCandlesSchema, payload);
        return parsed.success ? { type: 'chart.candlesReceived', pairCode: parsed.output.pair_code, timeframe: parsed.output.timeframe, candles: parsed.output.candles } : null;
      },
    },
  ],
  new_price: [
    {
      // new_price carries the bucket start as `time` and no volume (the chart keeps the last one).
      to: 'chart',
      toEvent: (payload): ChartEvent | null => {
        const parsed = v.safeParse(NewPriceSchema, payload);
        if (!parsed.success) return null;
        const { pair_code, timeframe, time, open, high, low, close } = parsed.output;
        return { type: 'chart.candleUpdated', candle: { pair_code, timeframe, timestamp: time, open, high, low, close, volume: 0 } };
      },
    },
  ],
  order_update: [
    {
      to: 'orders',
      toEvent: (payload): OrdersEvent | null => {
        const parsed = v.safeParse(OrderUpdateEventSchema, payload);
        return parsed.success ? { type: 'orders.orderUpdated', change: parsed.output.change, order: parsed.output.order } : null;
      },
    },
    {
      // Trade sounds: opened, and the result of a settled order.
      to: 'traderPrefs',
      toEvent: (payload): TraderPrefsEvent | null => {
        const parsed = v.safeParse(OrderUpdateEventSchema, payload);
        if (!parsed.success) return null;
        if (parsed.output.change === 'opened') return { type: 'traderPrefs.orderOpened' };
        return parsed.output.order.result ? { type: 'traderPrefs.orderSettled', result: parsed.output.order.result } : null;
      },
    },
  ],
  price_alert: [
    {
      to: 'priceAlerts',
      toEvent: (payload): PriceAlertsEvent | null => {
        const parsed = v.safeParse(PriceAlertEventSchema, payload);
        return parsed.success ? { type: 'alerts.fired', alert: parsed.output.alert } : null;
      },
    },
  ],
  support_update: [
    {
      to: 'support',
      toEvent: (payload): SupportEvent | null => {
        const parsed = v.safeParse(SupportUpdateEventSchema, payload);
        return parsed.success ? { type: 'support.updated', ticket: parsed.output.ticket, message: parsed.output.message } : null;
      },
    },
  ],
  init_payment_systems: [
    {
      to: 'paymentMethods',
      toEvent: (payload): PaymentMethodsEvent | null => {
        const parsed = v.safeParse(InitPaymentSystemsSchema, payload);
        return parsed.success ? { type: 'paymentMethods.received', methods: parsed.output.payment_systems, rates: parsed.output.rates } : null;
      },
    },
  ],
  payment_status_update: [
    paymentStatusRoute('deposit', (u): DepositEvent => ({ type: 'deposit.statusUpdated', transactionId: u.transactionId, status: u.status })),
    paymentStatusRoute('withdraw', (u): WithdrawEvent => ({ type: 'withdraw.statusUpdated', transactionId: u.transactionId, status: u.status })),
    paymentStatusRoute('transactions', (u): TransactionsEvent => ({ type: 'transactions.statusUpdated', ...u })),
  ],
  polling_status: [
    {
      to: 'deposit',
      toEvent: (payload): DepositEvent | null => {
        const parsed = v.safeParse(PollingStatusSchema, payload);
        return parsed.success ? { type: 'deposit.pollingUpdated', transactionId: parsed.output.transaction_id, polling: parsed.output.polling } : null;
      },
    },
  ],
  document_status_update: [
    {
      to: 'documents',
      toEvent: (payload): DocumentsEvent | null => {
        const parsed = v.safeParse(DocumentStatusUpdateEventSchema, payload);
        return parsed.success ? { type: 'documents.statusUpdated', document: parsed.output.document } : null;
      },
    },
  ],
  userdata: [
    {
      to: 'balance',
      toEvent: (payload): BalanceEvent | null => {
        const parsed = v.safeParse(UserdataPayload, payload);
        return parsed.success ? { type: 'balance.balancesReceived', balances: parsed.output.userdata.balances } : null;
      },
    },
    {
      to: 'balance',
      toEvent: (payload): BalanceEvent | null => {
        const parsed = v.safeParse(UserdataPayload, payload);
        return parsed.success && parsed.output.valuts ? { type: 'balance.currenciesReceived', currencies: parsed.output.valuts } : null;
      },
    },
    {
      // The market's rates (issue 26): balances compared at the platform's prices.
      to: 'balance',
      toEvent: (payload): BalanceEvent | null => {
        const parsed = v.safeParse(UserdataPayload, payload);
        return parsed.success && parsed.output.rates ? { type: 'balance.ratesReceived', rates: parsed.output.rates } : null;
      },
    },
    {
      // userdata answers the get_userdata the socket sends after every (re)connect, once the
      // socket is authenticated (in the user's room): pushes flow again from here, and the
      // orders are fetched again in case a settlement was pushed while the socket was down.
      to: 'orders',
      toEvent: (payload): OrdersEvent | null => (v.safeParse(UserdataPayload, payload).success ? { type: 'orders.refreshRequested' } : null),
    },
  ],
  update_balances: [
    {
      to: 'balance',
      toEvent: (payload): BalanceEvent | null => {
        const parsed = v.safeParse(UpdateBalancesPayload, payload);
        return parsed.success ? { type: 'balance.balancesReceived', balances: parsed.output.balances } : null;
      },
    },
    {
      // The withdraw form limits the amount by the real balance.
      to: 'withdraw',
      toEvent: (payload): WithdrawEvent | null => {
        const parsed = v.safeParse(UpdateBalancesPayload, payload);
        return parsed.success ? { type: 'withdraw.balancesReceived', balances: parsed.output.balances } : null;
      },
    },
  ],
  init_valuts: [
    {
      to: 'balance',
      toEvent: (payload): BalanceEvent | null => {
        const parsed = v.safeParse(InitValutsPayload, payload);
        return parsed.success ? { type: 'balance.currenciesReceived', currencies: parsed.output.valuts_data } : null;
      },
    },
  ],
  error_message: [
    {
      // The socket refused our token (it expired): re-fetching the user makes the HTTP client
      // refresh it, and the refreshed token reaches the socket as a new provide_token.
      to: 'session',
      toEvent: (payload): SessionEvent | null => {
        const parsed = v.safeParse(SocketErrorSchema, payload);
        const refused = parsed.success && parsed.output.message === 'Unauthorized' && ['provide_token', 'get_userdata'].includes(parsed.output.event);
        return refused ? { type: 'session.userRefreshRequested' } : null;
      },
    },
    {
      // select_pair refused (e.g. "Pair not found"): the chart stops waiting for its candles.
      to: 'chart',
      toEvent: (payload): ChartEvent | null => {
        const parsed = v.safeParse(SocketErrorSchema, payload);
        return parsed.success && parsed.output.event === 'select_pair' ? { type: 'chart.subscriptionFailed', message: parsed.output.message } : null;
      },
    },
  ],
};
