/**
 * The pair's risk limit (issue 13 item 3, docs/money.md): when the server refuses an order with
 * OrderErrorText.riskLimit, the bet panel shows the translated reason in its reason slot (as an
 * alert), not a toast; the next change of the amount clears it. Any other server refusal stays
 * a toast.
 */
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OrderErrorText } from '../../contract/orders';
import { BetPanel } from '../../src/features/trading/BetPanel';
import { ApiError } from '../../src/services/http';
import { BTCUSD, EURUSD } from '../machines/trading-fixtures';
import { startTradingApp } from './trading-harness';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import es from '../../locales/es.json';

const PAIRS = [EURUSD, BTCUSD];
const RATES = { EURUSD: 1.16012, BTCUSD: 64000.5 };

describe('bet panel: the risk limit', () => {
  it('shows the refusal in the reason slot, not as a toast, and clears it when the amount changes', async () => {
    const user = userEvent.setup();
    const app = startTradingApp({ createOrder: () => Promise.reject(new ApiError(409, OrderErrorText.riskLimit)) });
    app.feedPairs(PAIRS, RATES);
    const { container } = app.render(<BetPanel />);
    await user.click(screen.getByRole('button', { name: 'Up' }));
    await waitFor(() => expect(container.querySelector('.bet-problem-text')?.textContent).toBe(OrderErrorText.riskLimit));
    expect(screen.getByRole('alert').textContent).toBe(OrderErrorText.riskLimit);
    expect(container.querySelector('.bet-outcome')?.getAttribute('data-problem')).toBe('risk');
    expect(app.child('toasts').getSnapshot().context.toasts).toEqual([]);
    expect(screen.getByRole('button', { name: 'Up' }).hasAttribute('disabled')).toBe(false);

    await user.clear(screen.getByLabelText('Amount, USD'));
    await user.type(screen.getByLabelText('Amount, USD'), '5');
    expect(container.querySelector('.bet-problem-text')).toBeNull();
  });

  it('any other refusal is still a toast', async () => {
    const user = userEvent.setup();
    const app = startTradingApp({ createOrder: () => Promise.reject(new ApiError(409, OrderErrorText.priceUnavailable)) });
    app.feedPairs(PAIRS, RATES);
    const { container } = app.render(<BetPanel />);
    await user.click(screen.getByRole('button', { name: 'Down' }));
    await waitFor(() => expect(app.child('toasts').getSnapshot().context.toasts).toHaveLength(1));
    await act(async () => undefined);
    expect(container.querySelector('.bet-problem-text')).toBeNull();
  });

  it('the reason is written in every language', () => {
    const key = (l: typeof en) => (l as unknown as { server_texts: { orders: Record<string, string> } }).server_texts.orders.risk_limit;
    expect(key(en)).toBe(OrderErrorText.riskLimit);
    expect(key(ru)).toMatch(/лимит риска/);
    expect(key(es)).toMatch(/límite de riesgo/);
  });
});
