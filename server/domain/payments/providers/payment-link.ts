/**
 * The OxaPay-style crypto payment link (integration_type `oxapay_link`, deposit only).
 *
 * Creating a deposit creates an invoice (track id) and answers its payment_url; the payer
 * opens it, pays on the provider's page, and the provider calls
 * POST /api/v2/payments/webhooks/oxapay with the invoice's status, signed like OxaPay's:
 * header `hmac` = hex HMAC-SHA512 of the raw body with the merchant secret
 * (ctx.secrets.oxapayWebhookSecret). Paid approves and credits; expired and cancelled close
 * the deposit as expired / cancelled, failed fails it; paying/confirming moves it to processing.
 *
 * The embedded provider is `SandboxCheckout`: the server hosts the invoice page at
 * /checkout/sandbox/<invoice_id> (plain HTML, no script, no external asset, so the CSP holds),
 * where the payer sees the amount and presses Pay or Cancel. Each button is a form POST that
 * carries the invoice's own random token (CSRF-safe: a page of another origin cannot read it).
 * The sandbox then sends the signed callback over real HTTP to the webhook, exactly as the
 * real provider would, and shows the result with a link back to the app.
 */
import crypto from 'node:crypto';
import { fromMinor, formatMinor } from '../../../../contract/money';
import {
  CRYPTO_DEPOSIT_TTL_MS,
  OXAPAY_SIGNATURE_HEADER,
  OxapayWebhookSchema,
  PaymentErrorText,
  type OxapayWebhook,
} from '../../../../contract/payments';
import type { DB } from '../../../db';
import { SANDBOX_METHOD_IDS } from '../mode';
import { linkInvoice } from '../repository';
import { unauthenticated } from '../../errors';
import type { DomainLog } from '../../log';
import { parseInput } from '../../parse';
import { headerValue, verifyHmac } from '../signing';
import { hmacHex } from '../../../infra/crypto';
import { decimalsOf, type PaymentMethodRow, type PaymentTxRow } from '../wire';
import { parseJsonBody } from './crypto-address';
import type { CallbackUpdate, DepositFields, PaymentProvider, RequestHeaders } from './types';

export const CHECKOUT_PATH = '/checkout/sandbox';

export class PaymentLinkProvider implements PaymentProvider {
  readonly type = 'oxapay_link' as const;
  readonly depositTtlMs = CRYPTO_DEPOSIT_TTL_MS;

  constructor(
    private readonly secret: string,
    private readonly publicUrl: () => string,
  ) {}

  async createDeposit(_row: PaymentTxRow, _method: PaymentMethodRow): Promise<DepositFields> {
    const invoiceId = crypto.randomBytes(12).toString('hex');
    return {
      invoice_id: invoiceId,
      payment_url: `${this.publicUrl()}${CHECKOUT_PATH}/${invoiceId}`,
      checkout_token: crypto.randomBytes(24).toString('base64url'),
    };
  }

  async integrationData(row: PaymentTxRow) {
    return {
      amount: fromMinor(Number(row.amount_payment_currency), decimalsOf(row.payment_currency)),
      currency: row.payment_currency,
      crypto_network: null,
      crypto_wallet_address: null,
      qr_code: null,
      payment_url: row.payment_url,
    };
  }

  handleCallback(rawBody: Buffer, headers: RequestHeaders): CallbackUpdate {
    if (!verifyHmac('sha512', this.secret, rawBody, headerValue(headers, OXAPAY_SIGNATURE_HEADER))) {
      throw unauthenticated(PaymentErrorText.invalidSignature);
    }
    const p: OxapayWebhook = parseInput(OxapayWebhookSchema, parseJsonBody(rawBody));
    const failure: Record<string, { outcome: 'expired' | 'cancelled' | 'failed'; text: string }> = {
      expired: { outcome: 'expired', text: 'Payment expired' },
      failed: { outcome: 'failed', text: 'Payment failed' },
      cancelled: { outcome: 'cancelled', text: 'Payment cancelled' },
      canceled: { outcome: 'cancelled', text: 'Payment cancelled' },
    };
    const failed = failure[p.status];
    const outcome = p.status === 'paid' ? 'approved' : failed ? failed.outcome : p.status === 'waiting' ? 'unchanged' : 'processing';
    return {
      lookup: { invoiceId: p.track_id },
      orderId: p.order_id,
      outcome,
      amount: String(p.amount),
      currency: p.currency.toUpperCase(),
      txHash: p.txs?.find((t) => t.tx_hash)?.tx_hash ?? null,
      errorMessage: failed?.text ?? null,
    };
  }
}

/** The callback the sandbox sends, signed; exported so tests can build look-alikes. */
export function signedOxapayCallback(secret: string, payload: OxapayWebhook): { body: string; signature: string } {
  const body = JSON.stringify(payload);
  return { body, signature: hmacHex('sha512', secret, body) };
}

export interface SandboxPage {
  status: number;
  html: string;
}

export interface SandboxCheckoutOptions {
  db: DB;
  now: () => number;
  log: DomainLog;
  publicUrl: () => string;
  secret: string;
}

/** The provider's hosted invoice page, embedded for the sandbox. */
export class SandboxCheckout {
  constructor(private readonly opts: SandboxCheckoutOptions) {}

  private findInvoice(invoiceId: string): Promise<PaymentTxRow | undefined> {
    // Only sandbox invoices: a live OxaPay invoice is never shown or paid here.
    return linkInvoice(this.opts.db, invoiceId, SANDBOX_METHOD_IDS);
  }

  async page(invoiceId: string): Promise<SandboxPage> {
    const row = await this.findInvoice(invoiceId);
    if (!row) return { status: 404, html: layout('Invoice not found', '<p>This invoice does not exist.</p>', null) };
    const amount = `${formatMinor(Number(row.amount_payment_currency), decimalsOf(row.payment_currency))} ${row.payment_currency}`;
    const payable = this.isPayable(row);
    const rows = [
      ['Merchant', 'TradeTerminal'],
      ['Invoice', row.invoice_id ?? ''],
      ['Amount', amount],
      ['Status', payable ? 'Waiting for payment' : statusText(row.status)],
      ['Expires', row.expired_at ? new Date(Number(row.expired_at)).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '-'],
    ]
      .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`)
      .join('');
    const action = `${CHECKOUT_PATH}/${encodeURIComponent(invoiceId)}`;
    const token = esc(row.checkout_token ?? '');
    const forms = payable
      ? `<div class="actions">
  <form method="post" action="${esc(action)}/pay"><input type="hidden" name="token" value="${token}"><button type="submit" class="pay">Pay ${esc(amount)}</button></form>
  <form method="post" action="${esc(action)}/cancel"><input type="hidden" name="token" value="${token}"><button type="submit" class="cancel">Cancel</button></form>
</div>`
      : '';
    const body = `<table>${rows}</table>${forms}
<p class="note">Sandbox of the payment-link provider: pressing Pay sends the provider's signed notification to the merchant as a real payment would. No money moves.</p>`;
    return { status: 200, html: layout('Pay invoice', body, payable ? null : this.backLink()) };
  }

  /** Pay or Cancel pressed: check the form token, notify the merchant, show the outcome. */
  async act(invoiceId: string, action: 'pay' | 'cancel', token: unknown): Promise<SandboxPage> {
    const row = await this.findInvoice(invoiceId);
    if (!row) return { status: 404, html: layout('Invoice not found', '<p>This invoice does not exist.</p>', null) };
    if (!tokenMatches(row.checkout_token, token)) {
      return { status: 403, html: layout('Request refused', '<p>This form is not valid for this invoice. Open the payment link again.</p>', null) };
    }
    if (!this.isPayable(row)) {
      return { status: 409, html: layout('Invoice closed', `<p>This invoice is ${esc(statusText(row.status).toLowerCase())}.</p>`, this.backLink()) };
    }
    const payload: OxapayWebhook = {
      track_id: row.invoice_id!,
      status: action === 'pay' ? 'paid' : 'cancelled',
      type: 'invoice',
      amount: formatMinor(Number(row.amount_payment_currency), decimalsOf(row.payment_currency)),
      currency: row.payment_currency,
      order_id: String(row.id),
      date: Math.floor(this.opts.now() / 1000),
      ...(action === 'pay' ? { txs: [{ tx_hash: crypto.randomBytes(32).toString('hex'), network: 'TRON', currency: 'USDT' }] } : {}),
    };
    // OxaPay capitalises statuses in its callbacks; the webhook matches them case-insensitively.
    const wire = { ...payload, status: action === 'pay' ? 'Paid' : 'Cancelled' };
    const body = JSON.stringify(wire);
    let delivered = false;
    let status = 0;
    try {
      const res = await fetch(`${this.opts.publicUrl()}/api/v2/payments/webhooks/oxapay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [OXAPAY_SIGNATURE_HEADER]: hmacHex('sha512', this.opts.secret, body) },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.arrayBuffer();
      delivered = res.ok;
    } catch (err) {
      this.opts.log.warn({ err, invoice_id: invoiceId }, 'sandbox checkout: callback not delivered');
    }
    if (!delivered) {
      return {
        status: 502,
        html: layout('Notification failed', `<p>The merchant did not accept the payment notification${status ? ` (HTTP ${status})` : ''}. Try again.</p>`, this.backLink()),
      };
    }
    return action === 'pay'
      ? { status: 200, html: layout('Payment complete', '<p>The payment was sent. Your balance is updated in a moment.</p>', this.backLink()) }
      : { status: 200, html: layout('Payment cancelled', '<p>The invoice was cancelled. Nothing was charged.</p>', this.backLink()) };
  }

  private isPayable(row: PaymentTxRow): boolean {
    return (row.status === 'pending' || row.status === 'processing') && (row.expired_at === null || Number(row.expired_at) > this.opts.now());
  }

  private backLink(): string {
    return `${this.opts.publicUrl()}/trading`;
  }
}

function tokenMatches(expected: string | null, given: unknown): boolean {
  if (!expected || typeof given !== 'string' || given.length > 256) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

function statusText(status: string): string {
  const map: Record<string, string> = {
    approved: 'Paid',
    failed: 'Failed',
    expired: 'Expired',
    cancelled: 'Cancelled',
    processing: 'Processing',
    pending: 'Waiting for payment',
  };
  return map[status] ?? status;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function layout(title: string, body: string, backUrl: string | null): string {
  const back = backUrl ? `<p><a class="back" href="${esc(backUrl)}">Back to TradeTerminal</a></p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${esc(title)} - Payment sandbox</title>
<style>
body{font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:flex;justify-content:center;padding:48px 16px;margin:0}
main{background:#1e293b;border-radius:12px;padding:28px;max-width:420px;width:100%;box-shadow:0 10px 30px rgba(0,0,0,.4)}
h1{font-size:1.4rem;margin:0 0 4px}.brand{color:#94a3b8;font-size:.85rem;margin:0 0 20px}
table{width:100%;border-collapse:collapse;margin-bottom:20px}th,td{text-align:left;padding:6px 0;border-bottom:1px solid #334155}th{color:#94a3b8;font-weight:500;width:35%}
.actions{display:flex;gap:12px}.actions form{flex:1}button{width:100%;padding:12px;border:0;border-radius:8px;font-size:1rem;cursor:pointer}
.pay{background:#22c55e;color:#052e16;font-weight:600}.cancel{background:#475569;color:#f8fafc}
.note{color:#94a3b8;font-size:.8rem;margin-top:20px}a.back{color:#38bdf8}
</style></head>
<body><main><h1>${esc(title)}</h1><p class="brand">OxaPay sandbox checkout</p>${body}${back}</main></body></html>`;
}
