/**
 * An OxaPay v1 emulator for tests: a small node:http server that speaks the endpoints the live
 * adapters use, as docs.oxapay.com describes them (pages listed in docs/money.md "Payments"):
 *
 *   POST /v1/payment/invoice        header merchant_api_key; body amount*, currency, lifetime,
 *                                   callback_url, order_id, ... -> data {track_id, payment_url, expired_at, date}
 *   POST /v1/payment/white-label    header merchant_api_key; body pay_currency*, amount*, currency,
 *                                   network, ... -> data {track_id, address, network, pay_amount, pay_currency, expired_at, date, ...}
 *   GET  /v1/payment/{track_id}     header merchant_api_key -> data {track_id, type, amount, currency, status, order_id, txs, ...}
 *   POST /v1/payout                 header payout_api_key; body address*, currency*, amount*, network,
 *                                   callback_url, description -> data {track_id, status: "processing"}
 *   GET  /v1/payout/{track_id}      header payout_api_key -> data {track_id, address, currency, network, amount, status, tx_hash, ...}
 *
 * Every answer is the documented envelope {data, message, error, status, version}. A wrong or
 * missing key is refused (HTTP 401 with an error object). Webhooks are POSTed as JSON to the
 * callback_url with header `HMAC` = hex HMAC-SHA512 of the exact body, keyed with the merchant
 * key (payments) or the payout key (payouts); a delivery counts when the answer is 200 "ok".
 *
 * Test hooks drive it: pay / underpay / expire a payment, confirm or reject a payout (each
 * sends the webhook unless `drop: true`, which changes the state only: a lost webhook),
 * replay the last webhook, make the next call of an endpoint fail (refuse, 500 or hang past the
 * client's timeout). GET /pay/{track_id} is the hosted invoice page (one Pay button), for the
 * browser test.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EmuPayment {
  track_id: string;
  type: 'invoice' | 'white-label';
  amount: number;
  currency: string;
  pay_currency: string | null;
  network: string | null;
  address: string | null;
  order_id: string | null;
  callback_url: string | null;
  status: string;
  expired_at: number;
  date: number;
  txs: Array<{ tx_hash: string; amount: number; currency: string; network: string; status: string; confirmations: number; date: number }>;
}

export interface EmuPayout {
  track_id: string;
  address: string;
  currency: string;
  network: string | null;
  amount: number;
  callback_url: string | null;
  description: string | null;
  status: string;
  tx_hash: string | null;
  date: number;
}

export interface Delivery {
  url: string;
  body: string;
  signature: string;
  status: number;
  answer: string;
}

type Endpoint = 'invoice' | 'white-label' | 'payout' | 'payment-info' | 'payout-info';
type Failure = 'refuse' | 'error500' | 'hang';

export interface OxapayEmulator {
  url: string;
  merchantKey: string;
  payoutKey: string;
  payments: Map<string, EmuPayment>;
  payouts: Map<string, EmuPayout>;
  deliveries: Delivery[];
  /** Every request the emulator received: method and path. */
  requests: Array<{ method: string; path: string }>;
  paymentByOrder(orderId: string | number): EmuPayment | undefined;
  /** The payer pays the full amount: status paid (+ a tx), webhook sent unless drop. */
  pay(trackId: string, opts?: { drop?: boolean }): Promise<Delivery | null>;
  /** The payer pays less: status underpaid, webhook sent unless drop. */
  underpay(trackId: string, opts?: { drop?: boolean }): Promise<Delivery | null>;
  expire(trackId: string, opts?: { drop?: boolean }): Promise<Delivery | null>;
  confirmPayout(trackId: string, opts?: { drop?: boolean }): Promise<Delivery | null>;
  rejectPayout(trackId: string, opts?: { drop?: boolean }): Promise<Delivery | null>;
  /** Send the last webhook of this payment or payout again, byte for byte. */
  replay(trackId: string): Promise<Delivery>;
  /** The next call of `endpoint` fails that way (once). */
  failNext(endpoint: Endpoint, how: Failure): void;
  close(): Promise<void>;
}

const VERSION = '1.0.0';

function envelope(data: unknown, status = 200, error: Record<string, string> = {}, message = 'Operation completed successfully!') {
  return { data, message, error, status, version: VERSION };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const positive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;
const str = (x: unknown): x is string => typeof x === 'string' && x.length > 0;

export async function startOxapayEmulator(opts: { merchantKey?: string; payoutKey?: string } = {}): Promise<OxapayEmulator> {
  const merchantKey = opts.merchantKey ?? `merchant-${crypto.randomBytes(8).toString('hex')}`;
  const payoutKey = opts.payoutKey ?? `payout-${crypto.randomBytes(8).toString('hex')}`;
  const payments = new Map<string, EmuPayment>();
  const payouts = new Map<string, EmuPayout>();
  const deliveries: Delivery[] = [];
  const requests: Array<{ method: string; path: string }> = [];
  const lastWebhook = new Map<string, { url: string; body: string; key: string }>();
  const failures = new Map<Endpoint, Failure>();
  const hanging = new Set<http.ServerResponse>();
  let seq = 100_000_000 + Math.floor(Math.random() * 1_000_000);
  const now = () => Math.floor(Date.now() / 1000);
  let baseUrl = '';

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(envelope({}, 500, { type: 'server', key: 'internal', message: String(err) }, 'Internal error')));
    });
  });

  function send(res: http.ServerResponse, httpStatus: number, body: unknown) {
    res.writeHead(httpStatus, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  function refuse(res: http.ServerResponse, httpStatus: number, key: string, message: string) {
    send(res, httpStatus, envelope({}, httpStatus, { type: 'validation', key, message }, message));
  }

  /** true when the call was consumed by an injected failure. */
  function injected(endpoint: Endpoint, res: http.ServerResponse): boolean {
    const how = failures.get(endpoint);
    if (!how) return false;
    failures.delete(endpoint);
    if (how === 'refuse') refuse(res, 400, 'rejected', 'Request rejected');
    else if (how === 'error500') send(res, 500, envelope({}, 500, { type: 'server', key: 'internal', message: 'Internal error' }, 'Internal error'));
    else hanging.add(res);
    return true;
  }

  function paymentWire(p: EmuPayment) {
    return {
      track_id: p.track_id,
      type: p.type,
      amount: p.amount,
      currency: p.currency,
      status: p.status,
      mixed_payment: false,
      callback_url: p.callback_url,
      fee_paid_by_payer: 1,
      under_paid_coverage: 0,
      lifetime: 60,
      order_id: p.order_id,
      expired_at: p.expired_at,
      date: p.date,
      txs: p.txs,
    };
  }

  function payoutWire(p: EmuPayout) {
    return {
      track_id: p.track_id,
      address: p.address,
      currency: p.currency,
      network: p.network,
      amount: p.amount,
      fee: 0,
      status: p.status,
      tx_hash: p.tx_hash,
      description: p.description,
      internal: false,
      memo: '',
      date: p.date,
    };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = url.pathname;
    requests.push({ method: req.method ?? '', path });
    const raw = await readBody(req);
    const merchantOk = req.headers['merchant_api_key'] === merchantKey;
    const payoutOk = req.headers['payout_api_key'] === payoutKey;
    let body: Record<string, unknown> = {};
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return refuse(res, 400, 'invalid_json', 'Invalid JSON body');
      }
    }

    // The hosted invoice page (browser test): shows the amount and one Pay button.
    const page = /^\/pay\/([0-9]+)(\/go)?$/.exec(path);
    if (page) {
      const p = payments.get(page[1]);
      if (!p) {
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end('<!doctype html><title>Not found</title><h1>Invoice not found</h1>');
      }
      if (req.method === 'POST' && page[2]) {
        await settle(p, 'paid', false);
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(`<!doctype html><title>Paid</title><h1>Payment received</h1><p>Invoice ${p.track_id} is paid.</p>`);
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(
        `<!doctype html><title>OxaPay invoice</title><h1>Invoice ${p.track_id}</h1><p>Amount: ${p.amount} ${p.currency}</p><p>Status: ${p.status}</p>` +
          `<form method="post" action="/pay/${p.track_id}/go"><button type="submit">Pay ${p.amount} ${p.currency}</button></form>`,
      );
    }

    if (req.method === 'POST' && (path === '/v1/payment/invoice' || path === '/v1/payment/white-label')) {
      const endpoint: Endpoint = path.endsWith('invoice') ? 'invoice' : 'white-label';
      if (!merchantOk) return refuse(res, 401, 'invalid_merchant_api_key', 'Invalid merchant API key');
      if (injected(endpoint, res)) return;
      if (!positive(body.amount)) return refuse(res, 400, 'amount', 'The amount field is required');
      if (endpoint === 'white-label' && !str(body.pay_currency)) return refuse(res, 400, 'pay_currency', 'The pay currency field is required');
      const lifetime = typeof body.lifetime === 'number' ? body.lifetime : 60;
      if (lifetime < 15 || lifetime > 2880) return refuse(res, 400, 'lifetime', 'The lifetime must be between 15 and 2880');
      const trackId = String(seq++);
      const date = now();
      const currency = str(body.currency) ? body.currency.toUpperCase() : 'USD';
      const p: EmuPayment = {
        track_id: trackId,
        type: endpoint,
        amount: body.amount,
        currency,
        pay_currency: str(body.pay_currency) ? body.pay_currency.toUpperCase() : null,
        network: str(body.network) ? body.network : null,
        address: endpoint === 'white-label' ? `T${crypto.randomBytes(16).toString('hex')}` : null,
        order_id: str(body.order_id) ? body.order_id : null,
        callback_url: str(body.callback_url) ? body.callback_url : null,
        status: endpoint === 'invoice' ? 'new' : 'waiting',
        expired_at: date + lifetime * 60,
        date,
        txs: [],
      };
      payments.set(trackId, p);
      if (endpoint === 'invoice') {
        return send(res, 200, envelope({ track_id: trackId, payment_url: `${baseUrl}/pay/${trackId}`, expired_at: p.expired_at, date }));
      }
      return send(
        res,
        200,
        envelope({
          track_id: trackId,
          amount: p.amount,
          currency: p.currency,
          pay_amount: p.amount,
          pay_currency: p.pay_currency,
          network: p.network ?? 'Default Network',
          address: p.address,
          callback_url: p.callback_url,
          order_id: p.order_id,
          rate: 1,
          qr_code: `${baseUrl}/qr/${trackId}.png`,
          expired_at: p.expired_at,
          date,
        }),
      );
    }

    const info = /^\/v1\/payment\/([0-9]+)$/.exec(path);
    if (req.method === 'GET' && info) {
      if (!merchantOk) return refuse(res, 401, 'invalid_merchant_api_key', 'Invalid merchant API key');
      if (injected('payment-info', res)) return;
      const p = payments.get(info[1]);
      if (!p) return refuse(res, 404, 'track_id', 'Payment not found');
      return send(res, 200, envelope(paymentWire(p)));
    }

    if (req.method === 'POST' && path === '/v1/payout') {
      if (!payoutOk) return refuse(res, 401, 'invalid_payout_api_key', 'Invalid payout API key');
      if (injected('payout', res)) return;
      if (!str(body.address)) return refuse(res, 400, 'address', 'The address field is required');
      if (!str(body.currency)) return refuse(res, 400, 'currency', 'The currency field is required');
      if (!positive(body.amount)) return refuse(res, 400, 'amount', 'The amount field is required');
      const trackId = String(seq++);
      payouts.set(trackId, {
        track_id: trackId,
        address: body.address,
        currency: body.currency.toUpperCase(),
        network: str(body.network) ? body.network : null,
        amount: body.amount,
        callback_url: str(body.callback_url) ? body.callback_url : null,
        description: str(body.description) ? body.description : null,
        status: 'processing',
        tx_hash: null,
        date: now(),
      });
      return send(res, 200, envelope({ track_id: trackId, status: 'processing' }));
    }

    const payoutInfo = /^\/v1\/payout\/([0-9]+)$/.exec(path);
    if (req.method === 'GET' && payoutInfo) {
      if (!payoutOk) return refuse(res, 401, 'invalid_payout_api_key', 'Invalid payout API key');
      if (injected('payout-info', res)) return;
      const p = payouts.get(payoutInfo[1]);
      if (!p) return refuse(res, 404, 'track_id', 'Payout not found');
      return send(res, 200, envelope(payoutWire(p)));
    }

    return refuse(res, 404, 'not_found', 'Not found');
  }

  async function deliver(trackId: string, url: string, body: string, key: string): Promise<Delivery> {
    lastWebhook.set(trackId, { url, body, key });
    const signature = crypto.createHmac('sha512', key).update(body).digest('hex');
    let status = 0;
    let answer: string;
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', HMAC: signature }, body, signal: AbortSignal.timeout(10_000) });
      status = res.status;
      answer = await res.text();
    } catch (err) {
      answer = String(err);
    }
    const d = { url, body, signature, status, answer };
    deliveries.push(d);
    return d;
  }

  async function settle(p: EmuPayment, status: string, drop: boolean): Promise<Delivery | null> {
    p.status = status;
    if (status === 'paid' || status === 'underpaid') {
      const paid = status === 'paid' ? p.amount : Math.round(p.amount * 50) / 100;
      p.txs.push({
        tx_hash: crypto.randomBytes(32).toString('hex'),
        amount: paid,
        currency: p.pay_currency ?? 'USDT',
        network: p.network ?? 'Tron Network',
        status: 'confirmed',
        confirmations: 20,
        date: now(),
      });
    }
    if (drop || !p.callback_url) return null;
    const body = JSON.stringify({ ...paymentWire(p), module_name: 'OxaPay' });
    return deliver(p.track_id, p.callback_url, body, merchantKey);
  }

  async function settlePayout(p: EmuPayout, status: string, drop: boolean): Promise<Delivery | null> {
    p.status = status;
    if (status === 'confirmed') p.tx_hash = crypto.randomBytes(32).toString('hex');
    if (drop || !p.callback_url) return null;
    const body = JSON.stringify({ ...payoutWire(p), type: 'payout' });
    return deliver(p.track_id, p.callback_url, body, payoutKey);
  }

  function payment(trackId: string): EmuPayment {
    const p = payments.get(trackId);
    if (!p) throw new Error(`emulator: no payment ${trackId}`);
    return p;
  }
  function payout(trackId: string): EmuPayout {
    const p = payouts.get(trackId);
    if (!p) throw new Error(`emulator: no payout ${trackId}`);
    return p;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    merchantKey,
    payoutKey,
    payments,
    payouts,
    deliveries,
    requests,
    paymentByOrder: (orderId) => [...payments.values()].find((p) => p.order_id === String(orderId)),
    pay: (id, o = {}) => settle(payment(id), 'paid', !!o.drop),
    underpay: (id, o = {}) => settle(payment(id), 'underpaid', !!o.drop),
    expire: (id, o = {}) => settle(payment(id), 'expired', !!o.drop),
    confirmPayout: (id, o = {}) => settlePayout(payout(id), 'confirmed', !!o.drop),
    rejectPayout: (id, o = {}) => settlePayout(payout(id), 'rejected', !!o.drop),
    async replay(trackId) {
      const last = lastWebhook.get(trackId);
      if (!last) throw new Error(`emulator: no webhook sent for ${trackId}`);
      return deliver(trackId, last.url, last.body, last.key);
    },
    failNext: (endpoint, how) => failures.set(endpoint, how),
    close() {
      for (const res of hanging) res.destroy();
      hanging.clear();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
