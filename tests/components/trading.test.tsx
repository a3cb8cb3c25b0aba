/**
 * The trading views on the real machines (side effects stubbed): the pair selector (search,
 * categories, empty state, keyboard, choosing), the bet panel (potential return before the
 * click, steps and presets, refused bets, placing with a spinner), the orders panel (empty,
 * countdown and live estimate, failure with Retry, pagination, a missed settlement healed after
 * a reconnect, early closes made elsewhere) and the close confirmation.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order, OrderDetails, OrderListResponse } from '../../contract/orders';
import { filterPairs, PairSelectorModal } from '../../src/features/trading/PairSelectorModal';
import { BetPanel } from '../../src/features/trading/BetPanel';
import { changeTrend } from '../../src/features/trading/ChartPanel';
import { OrdersPanel } from '../../src/features/trading/OrdersPanel';
import { OrderCloseDialog } from '../../src/features/trading/OrderCloseDialog';
import { stakePresets, convertExpiry, potentialReturn, stepAmount, stepExpiry } from '../../machines/order-placement/bet-rules';
import { AAPL, BTCUSD, EURUSD, makeOrder, makePair, quote, settled, details } from '../machines/trading-fixtures';
import { emptyPage, startTradingApp } from './trading-harness';
import { formatMoney } from '../../src/i18n/format';

const XAUUSD = makePair('XAUUSD', { category: 'commodities', pair_human_code: 'Gold', precision: 2 });
const PAIRS = [EURUSD, BTCUSD, AAPL, XAUUSD];
const RATES = { EURUSD: 1.16012, BTCUSD: 64000.5, AAPL: 190.12, XAUUSD: 2350.4 };

function page(orders: Order[], total = orders.length, offset = 0): OrderListResponse {
  return { orders, pagination: { total_count: total, limit: 10, offset, has_more: offset + orders.length < total, next_offset: null } };
}

describe('bet panel helpers', () => {
  it('steps the amount on a 1-2-5 free grid within the currency limits', () => {
    expect(stepAmount('10', 'USD', 1)).toBe('20');
    expect(stepAmount('10', 'USD', -1)).toBe('9');
    expect(stepAmount('25', 'USD', 1)).toBe('30');
    expect(stepAmount('1', 'USD', -1)).toBe('1');
    expect(stepAmount('5000', 'USD', 1)).toBe('5000');
    expect(stepAmount('abc', 'USD', 1)).toBe('2');
    expect(stepAmount('12.34', 'USD', 1)).toBe('20');
  });

  it('offers presets scaled to the currency', () => {
    expect(stakePresets('USD')).toEqual(['10', '25', '50', '100']);
    expect(stakePresets('JPY')).toEqual(['1000', '2500', '5000', '10000']);
    expect(stakePresets('BTC')).toEqual(['0.0001', '0.00025', '0.0005', '0.001']);
    // Issue 26: the scale comes from the live rate when there is one (BTC at $9,000: 0.001 .. 0.01,
    // not the configured ~$64.5k's 0.0001 .. 0.001), the configured rate only without one.
    expect(stakePresets('BTC', 1 / 9_000)).toEqual(['0.001', '0.0025', '0.005', '0.01']);
    expect(stakePresets('JPY', 1_000)).toEqual(['10000', '25000', '50000', '100000']);
    expect(stakePresets('USD', Number.NaN)).toEqual(['10', '25', '50', '100']);
  });

  it('steps and converts the bet time', () => {
    expect(stepExpiry(5, 'seconds', -1)).toBe(5);
    expect(stepExpiry(5, 'seconds', 1)).toBe(10);
    expect(stepExpiry(60, 'seconds', 1)).toBe(75);
    expect(stepExpiry(60, 'seconds', -1)).toBe(55);
    expect(stepExpiry(1, 'minutes', -1)).toBe(1);
    expect(stepExpiry(15, 'minutes', 1)).toBe(20);
    expect(stepExpiry(240, 'minutes', 1)).toBe(240);
    expect(convertExpiry(90, 'seconds', 'minutes')).toBe(2);
    expect(convertExpiry(20, 'seconds', 'minutes')).toBe(1);
    expect(convertExpiry(2, 'minutes', 'seconds')).toBe(120);
  });

  it('computes the return of a win like the server: toward zero in minor units', () => {
    expect(potentialReturn('10.01', 'USD', 0.92)).toEqual({ payout: 19.21, profit: 9.2 });
    expect(potentialReturn('', 'USD', 0.92)).toBeNull();
    expect(potentialReturn('0', 'USD', 0.92)).toBeNull();
  });

  it('shows a change that rounds to 0.00 % as flat (grey, no triangle), never as "-0.00 %"', () => {
    expect(changeTrend(-0.00004)).toBe('flat');
    expect(changeTrend(0.00004)).toBe('flat');
    expect(changeTrend(0)).toBe('flat');
    expect(changeTrend(-0.00005)).toBe('down');
    expect(changeTrend(0.0014)).toBe('up');
  });

  it('filters pairs by a case-insensitive substring of either code and by category', () => {
    expect(filterPairs(PAIRS, 'usd', 'all').map((p) => p.pair_code)).toEqual(['EURUSD', 'BTCUSD', 'XAUUSD']);
    expect(filterPairs(PAIRS, 'eur/', 'all').map((p) => p.pair_code)).toEqual(['EURUSD']);
    expect(filterPairs(PAIRS, 'GOLD', 'all').map((p) => p.pair_code)).toEqual(['XAUUSD']);
    expect(filterPairs(PAIRS, 'usd', 'crypto').map((p) => p.pair_code)).toEqual(['BTCUSD']);
    expect(filterPairs(PAIRS, '', 'stocks').map((p) => p.pair_code)).toEqual(['AAPL']);
  });
});

describe('pair selector', () => {
  it('searches, switches categories, says when nothing matches, and chooses a pair', async () => {
    const user = userEvent.setup();
    const app = startTradingApp();
    app.feedPairs(PAIRS, RATES);
    const onClose = vi.fn();
    app.render(<PairSelectorModal data={null} onClose={onClose} />);

    const dialog = screen.getByRole('dialog', { name: 'Choose a pair' });
    const tabs = within(dialog).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['All', 'Favourites', 'Forex', 'Crypto', 'Stocks', 'Commodities']);
    expect(tabs[0].getAttribute('aria-selected')).toBe('true');
    expect(within(dialog).getAllByRole('button', { name: /payout/ })).toHaveLength(4);
    expect(within(dialog).getByRole('button', { name: 'EUR/USD, Forex, payout 92%' }).getAttribute('aria-current')).toBe('true');
    expect(within(dialog).getByText('64,000.50')).toBeTruthy();

    const search = within(dialog).getByRole('searchbox', { name: 'Search pairs' });
    expect(document.activeElement).toBe(search);
    await user.type(search, 'zzz');
    expect(within(dialog).getByRole('heading', { name: 'No pairs found' })).toBeTruthy();
    expect(within(dialog).getByText('Try a different search or another category.')).toBeTruthy();

    await user.clear(search);
    await user.type(search, 'usd');
    await user.click(within(dialog).getByRole('tab', { name: 'Crypto' }));
    expect(within(dialog).getAllByRole('button', { name: /payout/ }).map((b) => b.getAttribute('aria-label'))).toEqual(['BTC/USD, Crypto, payout 80%']);

    await user.click(within(dialog).getByRole('tab', { name: 'All' }));
    search.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('EUR/USD, Forex, payout 92%');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onClose).toHaveBeenCalledOnce();
    expect(app.child('pairs').getSnapshot().context).toMatchObject({ currentPair: 'BTCUSD', currentTimeframe: '1m' });
    expect(app.emitted).toContainEqual({ type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: 'BTCUSD', timeframe: '1m', token: 'tok' } });
  });

  it('does not open the on-screen keyboard on a touch screen: focus goes to the current pair', () => {
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      matches: query.includes('pointer: coarse'),
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as unknown as typeof window.matchMedia;
    try {
      const app = startTradingApp();
      app.feedPairs(PAIRS, RATES);
      app.render(<PairSelectorModal data={null} onClose={() => {}} />);
      const dialog = screen.getByRole('dialog', { name: 'Choose a pair' });
      expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'EUR/USD, Forex, payout 92%' }));
      expect(document.activeElement?.tagName).not.toBe('INPUT');
    } finally {
      window.matchMedia = original;
    }
  });

  it('is fully translated', () => {
    const app = startTradingApp();
    app.feedPairs(PAIRS, RATES);
    app.render(<PairSelectorModal data={null} onClose={() => {}} />, 'ru');
    const dialog = screen.getByRole('dialog', { name: 'Выбор пары' });
    expect(within(dialog).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Все', 'Избранное', 'Форекс', 'Крипто', 'Акции', 'Сырьё']);
    expect(dialog.textContent).not.toMatch(/trading\.[a-z_]+/);
  });
});

describe('bet panel', () => {
  it('shows the payout, the return and the profit before the click, and steps the amount', async () => {
    const user = userEvent.setup();
    const app = startTradingApp();
    app.feedPairs(PAIRS, RATES);
    const { container } = app.render(<BetPanel />);
    const summary = screen.getByText('Payout').closest('dl')!;
    expect(summary.textContent).toContain('92%');
    expect(summary.textContent).toContain('$19.20');
    expect(summary.textContent).toContain('+$9.20');
    expect(container.querySelector('.bet-account')?.textContent).toBe('Demo account$10,000.00');

    await user.click(screen.getByRole('button', { name: 'Increase amount' }));
    expect((screen.getByLabelText('Amount, USD') as HTMLInputElement).value).toBe('20');
    await user.click(screen.getByRole('button', { name: '$50' }));
    expect((screen.getByLabelText('Amount, USD') as HTMLInputElement).value).toBe('50');
    expect(screen.getByRole('button', { name: '$50' }).getAttribute('aria-pressed')).toBe('true');
    expect(summary.textContent).toContain('$96.00');

    await user.click(screen.getByRole('radio', { name: 'Seconds' }));
    expect((screen.getByLabelText('Bet time') as HTMLInputElement).value).toBe('60');
    await user.click(screen.getByRole('button', { name: 'Shorter bet time' }));
    expect((screen.getByLabelText('Bet time') as HTMLInputElement).value).toBe('55');
  });

  it('refuses a bad amount without a request: the reason in place of the return, never a payout for it, no toast', async () => {
    const user = userEvent.setup();
    const app = startTradingApp();
    app.feedPairs(PAIRS, RATES);
    const { container } = app.render(<BetPanel />);
    const amount = screen.getByLabelText('Amount, USD');
    const slot = () => container.querySelector('.bet-outcome')!;
    const up = screen.getByRole('button', { name: 'Up' });
    await user.clear(amount);
    await user.type(amount, '10.005');
    await user.tab();
    expect(slot().querySelector('.bet-problem-text')?.textContent).toBe('USD amounts can have at most 2 decimals');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    // Read with the field (the visible copy in the slot is not read twice).
    expect(document.getElementById(amount.getAttribute('aria-describedby')!)?.textContent).toBe('USD amounts can have at most 2 decimals');

    for (const [typed, reason] of [
      ['6000', 'Maximum bet is $5,000.00'],
      ['0.5', 'Minimum bet is $1.00'],
      ['10001', 'Maximum bet is $5,000.00'],
    ]) {
      await user.clear(amount);
      await user.type(amount, typed);
      expect(slot().querySelector('.bet-problem-text')?.textContent).toBe(reason);
      // The summary stays in place (invisible) so the buttons do not move, and shows no return.
      const summary = slot().querySelector('dl')!;
      expect(summary.hasAttribute('data-concealed')).toBe(true);
      expect(summary.textContent).toContain('Return—');
      expect(summary.textContent).toContain('Profit—');
      expect(up.getAttribute('aria-describedby')).toBe(slot().querySelector('.bet-problem-text')?.id);
    }
    await user.click(up);
    await user.click(screen.getByRole('button', { name: 'Down' }));
    expect(app.calls.createOrder).toEqual([]);
    expect(app.child('toasts').getSnapshot().context.toasts).toEqual([]);

    await user.clear(amount);
    await user.type(amount, '50');
    expect(slot().querySelector('.bet-problem-text')).toBeNull();
    expect(slot().querySelector('dl')?.textContent).toContain('Return$96.00');
  });

  it('shows a refused bet time once, in the panel, not also as a toast', async () => {
    const user = userEvent.setup();
    const app = startTradingApp();
    app.feedPairs(PAIRS, RATES);
    const { container } = app.render(<BetPanel />);
    await user.click(screen.getByRole('radio', { name: 'Seconds' }));
    const time = screen.getByLabelText('Bet time');
    await user.clear(time);
    await user.type(time, '2');
    await user.click(screen.getByRole('button', { name: 'Up' }));
    expect(container.querySelector('.bet-problem-text')?.textContent).toBe('Bet time must be from 5 seconds to 4 hours');
    expect(time.getAttribute('aria-invalid')).toBe('true');
    expect(app.calls.createOrder).toEqual([]);
    expect(app.child('toasts').getSnapshot().context.toasts).toEqual([]);
  });

  it('marks the real account unmistakably and offers a deposit when its balance is too low', async () => {
    const user = userEvent.setup();
    const app = startTradingApp({}, { balances: { USD: { RealBalance: 5, DemoBalance: 10000 } } });
    app.feedPairs(PAIRS, RATES);
    act(() => app.child('balance').send({ type: 'balance.typeChosen', balanceType: 'RealBalance' }));
    const { container } = app.render(<BetPanel />);
    const account = container.querySelector('.bet-account')!;
    expect(account.getAttribute('data-type')).toBe('RealBalance');
    expect(account.textContent).toBe('Real account$5.00');
    expect(account.querySelector('svg')).not.toBeNull();
    // The buttons say which account they trade on.
    expect(container.querySelector('.bet-summary')?.textContent).toContain('AccountReal account');
    // 10 is more than the 5 on the account: said at once, with a way to add money.
    expect(container.querySelector('.bet-problem-text')?.textContent).toBe('Insufficient balance');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    expect(app.child('modals').getSnapshot().context.open.map((m: { id: string }) => m.id)).toEqual(['deposit']);

    // The demo account has no deposit: only the reason.
    act(() => app.child('balance').send({ type: 'balance.typeChosen', balanceType: 'DemoBalance' }));
    await user.clear(screen.getByLabelText('Amount, USD'));
    await user.type(screen.getByLabelText('Amount, USD'), '20000');
    expect(container.querySelector('.bet-problem-text')?.textContent).toBe('Maximum bet is $5,000.00');
    expect(screen.queryByRole('button', { name: 'Deposit' })).toBeNull();
  });

  it('starts another currency at its own first preset, and its presets fit', async () => {
    const user = userEvent.setup();
    const app = startTradingApp({}, { balances: { USD: { RealBalance: 0, DemoBalance: 10000 }, BTC: { RealBalance: 0, DemoBalance: 1 } } });
    app.feedPairs(PAIRS, RATES);
    const { container } = app.render(<BetPanel />);
    await user.clear(screen.getByLabelText('Amount, USD'));
    await user.type(screen.getByLabelText('Amount, USD'), '40');
    act(() => app.child('balance').send({ type: 'balance.currencyChosen', currency: 'BTC' }));
    expect((screen.getByLabelText('Amount, BTC') as HTMLInputElement).value).toBe('0.0001');
    const presets = [...container.querySelectorAll('.bet-preset')];
    expect(presets.map((b) => b.textContent)).toEqual(['0.0001', '0.00025', '0.0005', '0.001']);
    expect(presets[0].getAttribute('aria-pressed')).toBe('true');
    expect(presets[1].getAttribute('aria-label')).toBe(formatMoney(0.00025, 'BTC', 'en', { decimals: 5 }));
    act(() => app.child('balance').send({ type: 'balance.currencyChosen', currency: 'USD' }));
    expect((screen.getByLabelText('Amount, USD') as HTMLInputElement).value).toBe('10');
  });

  it('places the order on the demo account with a spinner in the pressed button and toasts it', async () => {
    const user = userEvent.setup();
    let resolve!: (order: Order) => void;
    const app = startTradingApp({ createOrder: () => new Promise((r) => (resolve = r)) });
    app.feedPairs(PAIRS, RATES);
    app.render(<BetPanel />);
    await user.click(screen.getByRole('radio', { name: 'Seconds' }));
    const time = screen.getByLabelText('Bet time');
    await user.clear(time);
    await user.type(time, '5');
    await user.click(screen.getByRole('button', { name: 'Up' }));
    expect(app.calls.createOrder).toEqual([{ pair_code: 'EURUSD', direction: 'up', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 5 }]);
    const busy = screen.getByRole('button', { name: 'Placing…' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Down' }).hasAttribute('disabled')).toBe(true);
    await act(async () => resolve(makeOrder({ order_id: 77, amount: 10 })));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Up' }).hasAttribute('disabled')).toBe(false));
    const toasts = app.child('toasts').getSnapshot().context.toasts.map((t: { messageKey?: string }) => t.messageKey);
    expect(toasts).toContain('trading.order_opened_up');
  });

  it('asks to pick a pair when there is none', async () => {
    const user = userEvent.setup();
    const app = startTradingApp();
    app.render(<BetPanel />);
    await user.click(screen.getByRole('button', { name: 'Up' }));
    expect(screen.getByRole('alert').textContent).toBe('No pair selected');
  });
});

describe('orders panel', () => {
  it('says what to do when there are no open orders', async () => {
    const app = startTradingApp();
    app.render(<OrdersPanel headingId="orders-title" />);
    expect(await screen.findByRole('heading', { name: 'No open orders' })).toBeTruthy();
    expect(screen.getByText(/To open a trade, choose an amount/)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it('values the live estimate of an order in another currency at the live rate, not the configured one (issue 26)', async () => {
    // A EUR stake on BTC/USD, placed at EUR/USD 1.16: the server's currency_amount is stake /
    // (open x EUR per USD at the market). BTC up 1 % is +EUR 1.00 at the feed's EUR/USD; the
    // configured 0.92 EUR per USD would have shown +EUR 7.78.
    const order = makeOrder({ order_id: 7, pair_code: 'BTCUSD', pair: 'BTCUSD', pair_human_code: 'BTC/USD', currency: 'EUR', amount: 100, amount_in_user_currency: 100, open_price: 90_000, currency_amount: 100 / (90_000 / 1.16), expires_at_ms: Date.now() + 60_000 });
    const app = startTradingApp({ listOrders: () => Promise.resolve(page([order])) });
    app.feedPairs(PAIRS, { EURUSD: 1.16, BTCUSD: 90_900 });
    app.render(<OrdersPanel headingId="orders-title" />);
    const list = await screen.findByRole('list');
    fireEvent.click(within(list).getByRole('button', { name: /BTC\/USD Up/ }));
    expect(list.querySelector('.order-estimate')?.textContent).toBe('+€1.00');
  });

  it('shows open orders with a countdown, a progress bar and the live estimate, and closed ones with their result', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const now = Date.UTC(2026, 0, 1, 12, 0, 0);
      vi.setSystemTime(now);
      const up = makeOrder({ order_id: 1, amount: 100, potential_return: 192, open_price: 1.16, currency_amount: 100 / 1.16, created_at_ms: now - 20_000, expires_at_ms: now + 40_000 });
      const down = makeOrder({ order_id: 2, direction: 'down', amount: 100, potential_return: 192, open_price: 1.16, currency_amount: 100 / 1.16, created_at_ms: now - 30_000, expires_at_ms: now + 30_000 });
      const won = settled(makeOrder({ order_id: 3, amount: 10 }), 'won', 19.2);
      const app = startTradingApp({ listOrders: (q) => Promise.resolve(q.status === 'open' ? page([up, down]) : page([won], 25)) });
      app.feedPairs(PAIRS, { EURUSD: 1.17 });
      app.render(<OrdersPanel headingId="orders-title" />);

      const list = await screen.findByRole('list');
      const cards = within(list).getAllByRole('listitem');
      expect(cards).toHaveLength(2);
      const first = within(cards[0]).getByRole('button', { name: /EUR\/USD Up/ });
      expect(first.textContent).toContain('0:40');
      // The headline: the result if it ended now (a win pays stake x payout, a loss costs the stake).
      expect(first.textContent).toContain('If it ends now');
      expect(cards[0].querySelector('.order-outcome[data-tone="gain"]')?.textContent).toBe('+$92.00');
      expect(cards[1].querySelector('.order-outcome[data-tone="loss"]')?.textContent).toBe('-$100.00');
      expect(first.getAttribute('aria-label')).toBe('EUR/USD Up, $100.00, 0:40 left, if it ends now +$92.00. Show details');
      expect(within(cards[0]).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('33');
      expect(screen.getByRole('tab', { name: /Active/ }).textContent).toContain('2');

      fireEvent.click(first);
      expect(first.getAttribute('aria-expanded')).toBe('true');
      expect(within(cards[0]).getByText('Open price')).toBeTruthy();
      // The spec's estimate, under its own label in the details: the stake's value change.
      expect(within(cards[0]).getByText('Position value change')).toBeTruthy();
      expect(cards[0].querySelector('.order-estimate')?.textContent).toBe('+$0.86');
      expect(within(cards[0]).getByText('#1')).toBeTruthy();

      fireEvent.mouseDown(screen.getByRole('tab', { name: 'All' }));
      fireEvent.click(screen.getByRole('tab', { name: 'All' }));
      await waitFor(() => expect(screen.getByText('Won')).toBeTruthy());
      expect(screen.getByText('+$9.20')).toBeTruthy();
      // A closed order says when it closed, in the collapsed row too.
      const closedRow = screen.getByText('Won').closest('.order-summary')!;
      expect(closedRow.querySelector('.order-foot')?.textContent).toMatch(/^Closed\d\d\.\d\d\.\d{4} \d\d:\d\d$/);
      const pagination = screen.getByRole('navigation', { name: 'Pagination' });
      expect(within(pagination).getByRole('button', { name: 'Page 3' })).toBeTruthy();
      fireEvent.click(within(pagination).getByRole('button', { name: 'Page 2' }));
      await waitFor(() => expect(app.calls.listOrders.at(-1)).toEqual({ status: 'all', trading_account: 'all', limit: 10, offset: 10 }));
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the server message or the fallback with Retry', async () => {
    const user = userEvent.setup();
    let fail: unknown = new Error('');
    const app = startTradingApp({ listOrders: () => (fail ? Promise.reject(fail) : Promise.resolve(emptyPage())) });
    app.render(<OrdersPanel />);
    expect(await screen.findByRole('heading', { name: 'Failed to load orders' })).toBeTruthy();
    fail = new Error('Too many requests, please try again later');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Too many requests, please try again later' })).toBeTruthy();
    fail = null;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'No open orders' })).toBeTruthy();
  });

  it('heals a settlement missed while the socket was down: the card leaves Active and the result is toasted once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const now = Date.UTC(2026, 0, 1, 12, 0, 0);
      vi.setSystemTime(now);
      const expired = makeOrder({ order_id: 7, amount: 10, created_at_ms: now - 60_000, expires_at_ms: now - 1_000 });
      let open = [expired];
      const lookups: number[][] = [];
      const app = startTradingApp({
        listOrders: () => Promise.resolve(page(open)),
        lookupOrders: ({ orderIds }) => {
          lookups.push(orderIds);
          return Promise.resolve([settled(expired, 'won', 19.2)]);
        },
      });
      app.render(<OrdersPanel />);
      const list = await screen.findByRole('list');
      expect(within(list).getByText('Settling…')).toBeTruthy();
      // The order settled while the socket was down; it is back (get_userdata answered).
      open = [];
      act(() => app.push('userdata', { userdata: { balances: { USD: { RealBalance: 0, DemoBalance: 10009.2 } } } }));
      expect(await screen.findByRole('heading', { name: 'No open orders' })).toBeTruthy();
      const toasts = () => app.child('toasts').getSnapshot().context.toasts.map((t: { messageKey?: string }) => t.messageKey);
      await waitFor(() => expect(toasts()).toEqual(['orders.settled_won']));
      // After a trade the empty Active tab points to the settled orders, not to a first trade.
      expect(screen.getByText('Your settled orders are in All. Place a new trade any time.')).toBeTruthy();
      expect(screen.queryByText(/To open a trade, choose an amount/)).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Show all orders' }));
      expect(app.child('orders').getSnapshot().context.tab).toBe('all');
      expect(lookups).toEqual([[7]]);
      // The late push of the same settlement does not toast again.
      act(() => app.push('order_update', { change: 'settled', order: settled(expired, 'won', 19.2) }));
      expect(toasts()).toEqual(['orders.settled_won']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('toasts an early close made on another device', async () => {
    const app = startTradingApp();
    act(() => app.push('order_update', { change: 'settled', order: settled(makeOrder({ order_id: 8, amount: 10 }), 'closed_early', 6.5) }));
    const toast = app.child('toasts').getSnapshot().context.toasts[0] as { messageKey?: string; params?: Record<string, string> };
    expect(toast).toMatchObject({ messageKey: 'orders.settled_closed_early', params: { pair: { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' }, amount: { money: 6.5, currency: 'USD' } } });
  });

  it('filters by account', async () => {
    const user = userEvent.setup();
    const app = startTradingApp();
    app.render(<OrdersPanel />);
    await screen.findByRole('heading', { name: 'No open orders' });
    await user.click(screen.getByRole('radio', { name: 'Demo' }));
    await waitFor(() => expect(app.calls.listOrders.at(-1)).toEqual({ status: 'open', trading_account: 'DemoAccount', limit: 10, offset: 0 }));
  });
});

describe('close confirmation', () => {
  const order = makeOrder({ order_id: 42, amount: 100, pair_human_code: 'EUR/USD' });

  it('waits for the quote, shows it, closes with it, and stays open on a refusal', async () => {
    const user = userEvent.setup();
    let refuse = true;
    let fetched!: (d: OrderDetails) => void;
    const app = startTradingApp({
      getOrder: () => new Promise((r) => (fetched = r)),
      closeOrder: () => (refuse ? Promise.reject(new Error('Price changed, please confirm again')) : Promise.resolve(settled(order, 'closed_early', 181.34))),
    });
    app.actor.send({ type: 'flow.orderCloseStarted', orderId: 42 });
    app.render(<OrderCloseDialog actor={app.child('orderClose')} />);
    const dialog = screen.getByRole('dialog', { name: 'Close the order now?' });
    expect(within(dialog).getByText('Getting a quote…')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Close order' }).hasAttribute('disabled')).toBe(true);

    await act(async () => fetched(details(order, quote(181.34))));
    expect(within(dialog).getByText('$181.34')).toBeTruthy();
    expect(dialog.textContent).toContain('EUR/USD Up, stake $100.00');
    await user.click(within(dialog).getByRole('button', { name: 'Close for $181.34' }));
    expect(await within(dialog).findByText('Price changed, please confirm again')).toBeTruthy();
    expect(app.calls.closeOrder).toEqual([{ orderId: 42, currency: 'USD', expectedMin: 179.52 }]);
    expect(within(dialog).getByText('at least $179.52')).toBeTruthy();

    refuse = false;
    await user.click(within(dialog).getByRole('button', { name: 'Close for $181.34' }));
    await waitFor(() => expect(app.actor.system.get('orderClose')).toBeUndefined());
    // The push of this close arrives too: only the close flow's toast is shown.
    act(() => app.push('order_update', { change: 'settled', order: settled(order, 'closed_early', 181.34) }));
    const toasts = app.child('toasts').getSnapshot().context.toasts.map((t: { messageKey?: string }) => t.messageKey);
    expect(toasts).toEqual(['orders.order_closed_successfully']);
  });

  it.each([
    [81.34, '-$18.66', 'loss'],
    [181.34, '+$81.34', 'gain'],
  ])('shows a quote of %s against a stake of 100 as %s (issue 26)', async (amount, shown, tone) => {
    const app = startTradingApp({ getOrder: () => Promise.resolve(details(order, quote(amount))) });
    app.actor.send({ type: 'flow.orderCloseStarted', orderId: 42 });
    app.render(<OrderCloseDialog actor={app.child('orderClose')} />);
    const dialog = screen.getByRole('dialog', { name: 'Close the order now?' });
    const row = (await within(dialog).findByText('Against your $100.00 stake:')).parentElement!;
    const difference = row.querySelector('[data-tone]')!;
    expect(difference.textContent).toBe(shown);
    expect(difference.getAttribute('data-tone')).toBe(tone);
  });

  it('says when the order has already closed, with its result and payout', async () => {
    const app = startTradingApp({ getOrder: () => Promise.resolve(details(settled(order, 'lost', 0), null)) });
    app.actor.send({ type: 'flow.orderCloseStarted', orderId: 42 });
    app.render(<OrderCloseDialog actor={app.child('orderClose')} />);
    const dialog = await screen.findByRole('dialog', { name: 'Order already closed' });
    expect(within(dialog).getByRole('status').textContent).toBe('It is no longer open, so there is nothing to close. Its result:StatusLostPaid out$0.00Profit/loss-$100.00');
    expect(within(dialog).queryByRole('button', { name: /Close for/ })).toBeNull();
  });

  it('opens with the focus on Cancel, not on the button that closes the order', async () => {
    const app = startTradingApp({ getOrder: () => Promise.resolve(details(order, quote(181.34))) });
    app.actor.send({ type: 'flow.orderCloseStarted', orderId: 42 });
    app.render(<OrderCloseDialog actor={app.child('orderClose')} />);
    const dialog = screen.getByRole('dialog', { name: 'Close the order now?' });
    await within(dialog).findByRole('button', { name: 'Close for $181.34' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
  });
});
