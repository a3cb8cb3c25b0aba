/**
 * The order-close machine's generated paths, replayed through the rendered close confirmation
 * (OrderCloseDialog as the trading page shows it, on the real app machine, which spawns the
 * real orderClose machine on flow.orderCloseStarted; only `fetchOrder` and `closeOrder` are
 * controlled stubs, and time is a simulated clock the paths move for the quote refresh and the
 * retry). A trader presses "Close for ...", Retry or nothing; the server answers the two calls.
 * At every step the dialog must show what the trader needs to decide: the order, the quote with
 * its minimum, a visible wait, the server's reason for a refusal, a Confirm that is only enabled
 * with a quote on screen and busy while closing; once closed the dialog goes and a toast says
 * what was received.
 */
import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { useSelector } from '@xstate/react';
import type { AnyActorRef, AnyEventObject, EventObject } from 'xstate';
import { isClosedElsewhere, minimumAccepted, orderCloseMachine, type OrderCloseContext } from '../../machines/order-close/order-close.machine';
import { formatMoney } from '../../src/i18n/format';
import { OrderCloseDialog } from '../../src/features/trading/OrderCloseDialog';
import { ToastViewport } from '../../src/components';
import { useChild, useToastsActor } from '../../src/shared/runtime';
import { useT } from '../../src/i18n';
import en from '../../locales/en.json';
import { generatePaths, type PathModel, type PathStep } from '../machines/harness';
import { makeUser } from '../machines/fixtures';
import { details, makeOrder, quote, settled } from '../machines/trading-fixtures';
import { ControlledActors, allStateKeys, replayUiPath, startApp, type UiDriver, uiPathCases } from './ui-paths';

const order = makeOrder({ order_id: 42, amount: 100 });
const events: AnyEventObject[] = [
  { type: 'orderClose.confirmed' },
  { type: 'orderClose.retryRequested' },
  { type: 'xstate.done.actor.fetchOrder', output: details(order, quote(181.34)) },
  { type: 'xstate.done.actor.fetchOrder', output: details(order, null) },
  { type: 'xstate.done.actor.fetchOrder', output: details(settled(order, 'won', 192), null) },
  { type: 'xstate.error.actor.fetchOrder', error: { message: 'Order not found' } },
  { type: 'xstate.error.actor.fetchOrder', error: null },
  { type: 'xstate.done.actor.closeOrder', output: settled(order, 'closed_early', 181.34) },
  { type: 'xstate.error.actor.closeOrder', error: { message: 'Price changed, please confirm again' } },
  { type: 'xstate.error.actor.closeOrder', error: null },
];

const usd = (amount: number) => `$${amount.toFixed(2)}`;

/** The trading page's part: the dialog while the close flow lives, and the toasts as the app shows them. */
function CloseFlowView() {
  const t = useT();
  const flow = useChild('orderClose');
  const toasts = useSelector(useToastsActor(), (s) => s.context.toasts);
  const items = toasts.map((toast) => ({ id: String(toast.id), type: toast.type, text: toast.message ?? (toast.messageKey ? t(toast.messageKey, toast.params) : '') }));
  return (
    <>
      {flow ? <OrderCloseDialog actor={flow} /> : null}
      <ToastViewport toasts={items} onDismiss={() => {}} />
    </>
  );
}

function startClose() {
  const controlled = new ControlledActors();
  const session = startApp(
    { orderClose: orderCloseMachine.provide({ actors: { fetchOrder: controlled.logic('fetchOrder'), closeOrder: controlled.logic('closeOrder') } }) },
    makeUser(),
  );
  session.render(<CloseFlowView />);
  act(() => session.app.send({ type: 'flow.orderCloseStarted', orderId: 42 }));
  // Closed, the dialog ends the flow: the last actor is kept to read its final state.
  let last: AnyActorRef | undefined;
  const flow = () => (last = session.app.getSnapshot().children.orderClose ?? last);
  return { ...session, controlled, flow };
}

function driver(session: ReturnType<typeof startClose>): UiDriver {
  const { user } = session;
  return {
    flow: session.flow,
    async perform(event: EventObject) {
      if (event.type === 'orderClose.confirmed') {
        // Pressed whatever it says; disabled while there is no quote (then nothing happens).
        const dialog = screen.getByRole('dialog', { name: en.orders.close_title });
        const confirm = within(dialog).getByRole('button', { name: /^Close (for|order)/ });
        await user.click(confirm);
        return;
      }
      if (event.type === 'orderClose.retryRequested') {
        await user.click(screen.getByRole('button', { name: en.common.retry }));
        return;
      }
      throw new Error(`no UI action for ${event.type}`);
    },
    expectScreen(step: PathStep) {
      const context = step.context as OrderCloseContext;
      // The quote's substate while confirming; `closed` split into closed here / already closed.
      const value = step.value as string | { confirming: string };
      const state = typeof value === 'object' ? value.confirming : value === 'closed' && isClosedElsewhere(context) ? 'alreadyClosed' : value;
      if (state === 'closed') {
        expect(screen.queryByRole('dialog')).toBeNull();
        const toasts = screen.getByRole('region', { name: en.components.toast.region });
        expect(within(toasts).getByRole('status').textContent).toContain(`Order closed successfully: EUR/USD, ${formatMoney(context.closedOrder!.payout!, 'USD', 'en')} received`);
        return;
      }
      const dialog = screen.getByRole('dialog', { name: state === 'alreadyClosed' ? en.orders.already_closed_title : en.orders.close_title });
      const q = within(dialog);
      if (context.order) expect(dialog.textContent).toContain(`EUR/USD Up, stake ${usd(context.order.amount)}`);
      if (state === 'alreadyClosed') {
        // The order ended first: its result and payout, and nothing that contradicts it (no
        // quote, no refusal from an earlier attempt, no Close button).
        const result = q.getByRole('status');
        expect(result.textContent).toContain(en.orders.already_closed);
        expect(result.textContent).toContain(en.orders.result.won);
        expect(result.textContent).toContain(`${en.orders.fields.payout}${usd(context.order!.payout!)}`);
        expect(result.textContent).toContain(`+${usd(context.order!.profit_loss!)}`);
        expect(q.queryByText(en.orders.failed_to_close_order)).toBeNull();
        expect(q.queryByText('Price changed, please confirm again')).toBeNull();
        expect(q.queryByText(en.orders.close_quote)).toBeNull();
        expect(q.getAllByRole('button', { name: en.common.close }).length).toBeGreaterThan(0);
        expect(q.queryByRole('button', { name: /^Close (for|order)/ })).toBeNull();
        return;
      }
      const closing = state === 'closing';
      const cancel = q.getByRole('button', { name: en.common.cancel }) as HTMLButtonElement;
      expect(cancel.disabled).toBe(closing);
      if (closing) {
        const busy = q.getByRole('button', { name: en.orders.closing });
        expect(busy.getAttribute('aria-busy')).toBe('true');
      } else if (context.quote) {
        // Confirmable only with a live quote: not while a failed refresh is on screen.
        const confirm = q.getByRole('button', { name: `Close for ${usd(context.quote.amount)}` }) as HTMLButtonElement;
        expect(confirm.disabled).toBe(state === 'quoteFailed');
      } else {
        expect((q.getByRole('button', { name: en.orders.close }) as HTMLButtonElement).disabled).toBe(true);
      }
      if (state === 'quoteFailed') {
        expect(q.getByText(context.quoteError!.message ?? en.orders.failed_to_load_details)).toBeTruthy();
        expect(q.getByRole('button', { name: en.common.retry })).toBeTruthy();
      } else if (state === 'unavailable') {
        expect(q.getByRole('status').textContent).toContain(en.orders.quote_unavailable);
      } else if (state === 'loadingQuote' && !context.quote) {
        expect(q.getByRole('status').textContent).toContain(en.orders.quote_loading);
      } else if (context.quote && !closing) {
        expect(q.getByText(en.orders.close_quote)).toBeTruthy();
        expect(q.getByText(`at least ${usd(minimumAccepted(context.quote))}`)).toBeTruthy();
      }
      if (context.closeError) expect(q.getByText(context.closeError.message ?? en.orders.failed_to_close_order)).toBeTruthy();
      else expect(q.queryByText(en.orders.failed_to_close_order)).toBeNull();
    },
  };
}

const model: PathModel = { name: 'orderClose (UI)', machine: orderCloseMachine, input: { orderId: 42 }, events, simplePaths: false };
const { cases } = uiPathCases(generatePaths(model));
const visited = new Set<string>();

describe('order-close paths through the close confirmation', () => {
  it.each(cases)('%s', async (_, path) => {
    const session = startClose();
    try {
      for (const key of await replayUiPath(path, driver(session), { machine: orderCloseMachine, controlled: session.controlled, clock: session.clock })) visited.add(key);
    } finally {
      session.stop();
    }
  });

  it('went through every state of the machine on screen', () => {
    expect(allStateKeys(orderCloseMachine).filter((key) => !visited.has(key))).toEqual([]);
  });
});
