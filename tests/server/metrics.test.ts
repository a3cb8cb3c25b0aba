/**
 * The Prometheus metrics (issue 34 item 1, docs/operations.md): GET /metrics exists only with
 * METRICS_TOKEN and answers only its bearer; a scrape during settlement sees the lag histogram
 * move and the placed and refused counters count by account kind and reason; the books' sum is
 * 0 per currency; labels carry route patterns, never ids; METRICS_PORT serves the same text on a
 * private listener.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, sleep, startOrdersServer, TestClock, type OrdersServer } from '../support/orders-harness';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import { freePort } from '../support/free-port';

const TOKEN = 'metrics-token-for-the-test-0123456789';
const clock = new TestClock();
let s: OrdersServer;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  s = await startOrdersServer({ clock, env: { METRICS_TOKEN: TOKEN, METRICS_PORT: String(metricsPort) } });
});
afterAll(async () => {
  await s.server.close();
});
auditLedgerAfterEach(() => s);

async function scrape(token = TOKEN): Promise<{ status: number; type: string | null; text: string }> {
  const r = await s.server.raw('GET', '/metrics', { headers: { authorization: `Bearer ${token}` } });
  return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
}

/** One sample's value: `name{labels} value`, labels given as they are printed; 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics', () => {
  it('answers only the configured bearer token', async () => {
    expect((await scrape('wrong-token-wrong-token-wrong')).status).toBe(401);
    const none = await s.server.raw('GET', '/metrics');
    expect(none.status).toBe(401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.type).toContain('text/plain');
    expect(ok.text).toContain('# TYPE tt_settlement_lag_seconds histogram');
    expect(ok.text).toContain('nodejs_eventloop_lag_seconds');
    expect(ok.text).toContain('process_cpu_user_seconds_total');
  });

  it('sees orders placed and refused, and the settlement lag move during settlement', async () => {
    const user = await makeUser(s, { USD: 500 });
    s.feed.push('EURUSD', 1.16);
    const before = (await scrape()).text;
    const lagBefore = sample(before, 'tt_settlement_lag_seconds_count');

    const place = (account: string, amount: number) =>
      s.server.api('POST', '/api/v2/orders', { pair_code: 'EURUSD', direction: 'up', amount, currency: 'USD', trading_account: account, expiry: 5 }, user.token);
    expect((await place('DemoAccount', 10)).status).toBe(201);
    expect((await place('RealAccount', 2)).status).toBe(201);
    // $5.00 real: $2 taken, $4 more is refused for the balance.
    expect((await place('RealAccount', 4)).status).toBe(400);

    const during = (await scrape()).text;
    expect(sample(during, 'tt_orders_placed_total{account="demo"}') - sample(before, 'tt_orders_placed_total{account="demo"}')).toBe(1);
    expect(sample(during, 'tt_orders_placed_total{account="real"}') - sample(before, 'tt_orders_placed_total{account="real"}')).toBe(1);
    expect(sample(during, 'tt_orders_refused_total{reason="insufficient_balance",account="real"}') - sample(before, 'tt_orders_refused_total{reason="insufficient_balance",account="real"}')).toBe(1);
    // Open real exposure on the pair, against its limit.
    expect(sample(during, 'tt_exposure_usd{pair="EURUSD"}')).toBeGreaterThan(0);
    expect(sample(during, 'tt_exposure_limit_usd{pair="EURUSD"}')).toBeGreaterThan(0);

    // Expire both, then a later tick makes the expiry tick final: they settle.
    clock.advance(6_000);
    s.feed.push('EURUSD', 1.1601);
    clock.advance(1_500);
    s.feed.push('EURUSD', 1.1602);
    const deadline = Date.now() + 10_000;
    let after = '';
    while (Date.now() < deadline) {
      after = (await scrape()).text;
      if (sample(after, 'tt_settlement_lag_seconds_count') - lagBefore >= 2) break;
      await sleep(50);
    }
    expect(sample(after, 'tt_settlement_lag_seconds_count') - lagBefore).toBe(2);
    expect(sample(after, 'tt_settlement_lag_seconds_sum')).toBeGreaterThan(sample(before, 'tt_settlement_lag_seconds_sum'));
    expect(sample(after, 'tt_oldest_unsettled_order_age_seconds')).toBe(0);
  });

  it('reports the books per currency at 0, tick ages, queues, and route patterns rather than ids', async () => {
    const user = await makeUser(s, { USD: 100 });
    // The books' sum is read at most once a minute (a scan of every balance): past that.
    clock.advance(61_000);
    s.feed.push('EURUSD', 1.16);
    const { body } = await s.server.api('POST', '/api/v2/orders', { pair_code: 'EURUSD', direction: 'down', amount: 1, currency: 'USD', trading_account: 'DemoAccount', expiry: 5 }, user.token);
    const orderId = (body as any).data.order.order_id as number;
    expect((await s.server.api('GET', `/api/platform/orders/${orderId}`, undefined, user.token)).status).toBe(200);
    const text = (await scrape()).text;
    const books = text.split('\n').filter((l) => l.startsWith('tt_books_sum_minor{'));
    expect(books.length).toBeGreaterThan(0);
    for (const line of books) expect(line).toMatch(/ 0$/);
    expect(text).toMatch(/tt_tick_age_seconds\{pair="EURUSD",feed="[a-z]+"\} /);
    expect(text).toMatch(/tt_queue_size\{queue="kyc"\} \d+/);
    expect(text).toMatch(/tt_queue_size\{queue="support"\} \d+/);
    expect(text).toMatch(/tt_outbox_backlog \d+/);
    expect(text).toContain('route="/api/platform/orders/:id"');
    // No label value carries an id or a user's token.
    expect(text).not.toContain(`/api/platform/orders/${orderId}"`);
    expect(text).not.toContain(user.token);
    expect(text).not.toMatch(/user(_id)?="/);
  });

  it('serves the same text on the private METRICS_PORT listener', async () => {
    const r = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('tt_orders_placed_total');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
  });
});

describe('without METRICS_TOKEN', () => {
  it('has no /metrics route on the main port', async () => {
    const plain = await startOrdersServer({ clock: null });
    try {
      const r = await plain.server.raw('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(r.status).toBe(404);
    } finally {
      await plain.server.close();
    }
  });
});
