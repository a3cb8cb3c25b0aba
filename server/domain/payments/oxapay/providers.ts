/**
 * The live OxaPay adapters (PAYMENTS_MODE=live), behind the same PaymentProvider interface as
 * the sandbox ones, serving the spec's two crypto integration types:
 *
 *   oxapay_link      an invoice: POST /v1/payment/invoice -> track_id + payment_url; the payer
 *                    pays on OxaPay's page. Callback: POST /api/v2/payments/webhooks/oxapay.
 *   crypto_address   white-label: POST /v1/payment/white-label -> track_id + address on the
 *                    method's network; we show the address, network and our own QR code.
 *                    Callback: POST /api/v2/payments/webhooks/crypto.
 *
 * Both ask for the deposit's amount in its payment currency (amount + currency, and
 * pay_currency for white-label), with under_paid_coverage 0 (a `paid` status means the full
 * amount arrived) and order_id = our transaction id; the track_id is kept in invoice_id.
 * Callbacks are OxaPay's: HMAC-SHA512 of the raw body with the MERCHANT key in header `HMAC`,
 * compared in constant time. Under/overpaid rule: see paymentUpdate below and docs/money.md.
 */
import { fromMinor } from '../../../../contract/money';
import { CRYPTO_DEPOSIT_TTL_MS, PaymentErrorText } from '../../../../contract/payments';
import { OXAPAY_HMAC_HEADER, OxapayPaymentSchema, type OxapayPayment } from '../../../../contract/oxapay';
import { unauthenticated } from '../../errors';
import { parseInput } from '../../parse';
import { paymentUri, qrDataUrl } from '../qr';
import { headerValue, verifyHmac } from '../signing';
import { decimalsOf, type PaymentMethodRow, type PaymentTxRow } from '../wire';
import { parseJsonBody } from '../providers/crypto-address';
import type { CallbackUpdate, DepositFields, PaymentProvider, RequestHeaders, WithdrawalTerms } from '../providers/types';
import type { OxapayClient } from './client';

/** Minutes an OxaPay invoice / address stays payable: the same window as our deposit row. */
export const OXAPAY_LIFETIME_MINUTES = CRYPTO_DEPOSIT_TTL_MS / 60_000;
export const DEPOSIT_WEBHOOK_PATH = { oxapay_link: '/api/v2/payments/webhooks/oxapay', crypto_address: '/api/v2/payments/webhooks/crypto' } as const;

/** OxaPay's network name for a method's network (the payout docs use "TRC20"); null = its default. */
export function oxapayNetwork(network: string | null): string | undefined {
  if (!network || network === 'Bitcoin') return undefined;
  return network;
}

const UNDERPAID_NOTE = 'Underpaid: the payer sent less than the amount. Not credited; waiting for the operator';

/**
 * What an OxaPay payment status means for our deposit (webhook and reconciliation alike):
 *
 *   paid, manual_accept   approved: credit the deposit's amount once. We create every payment
 *                         with under_paid_coverage 0, so paid means at least the full amount.
 *                         OVERPAID: the excess stays in the merchant's OxaPay balance; the
 *                         deposit credits exactly what was asked (an operator refunds the excess
 *                         on request).
 *   underpaid             UNDERPAID: nothing is credited; the deposit waits in processing with
 *                         a note for the operator, who approves it (crediting the amount asked,
 *                         after topping up with the payer) or rejects it and refunds at OxaPay.
 *   paying                processing (seen on chain, not confirmed).
 *   new, waiting          unchanged.
 *   expired               expired (a later `paid` still credits: late payment, deposits.ts).
 *   refunding, refunded   failed ("Payment refunded") when it had not been credited.
 */
export function paymentUpdate(p: OxapayPayment): CallbackUpdate {
  const base = {
    lookup: { invoiceId: p.track_id },
    orderId: p.order_id ?? '',
    amount: String(p.amount),
    currency: p.currency.toUpperCase(),
    txHash: p.txs?.find((t) => t.tx_hash)?.tx_hash ?? null,
  };
  switch (p.status) {
    case 'paid':
    case 'manual_accept':
      return { ...base, outcome: 'approved', errorMessage: null };
    case 'underpaid':
      return { ...base, outcome: 'underpaid', errorMessage: UNDERPAID_NOTE };
    case 'paying':
    case 'confirming':
      return { ...base, outcome: 'processing', errorMessage: null };
    case 'expired':
      return { ...base, outcome: 'expired', errorMessage: 'Payment expired' };
    case 'refunding':
    case 'refunded':
      return { ...base, outcome: 'failed', errorMessage: 'Payment refunded by the provider' };
    default:
      return { ...base, outcome: 'unchanged', errorMessage: null };
  }
}

/** Verify OxaPay's HMAC header over the raw body with `key`; 401 when it does not match. */
export function verifyOxapaySignature(key: string, rawBody: Buffer, headers: RequestHeaders): void {
  if (!verifyHmac('sha512', key, rawBody, headerValue(headers, OXAPAY_HMAC_HEADER))) {
    throw unauthenticated(PaymentErrorText.invalidSignature);
  }
}

abstract class OxapayDepositProvider {
  readonly depositTtlMs = CRYPTO_DEPOSIT_TTL_MS;

  constructor(
    protected readonly client: OxapayClient,
    protected readonly merchantApiKey: string,
    protected readonly publicUrl: () => string,
  ) {}

  handleCallback(rawBody: Buffer, headers: RequestHeaders): CallbackUpdate {
    verifyOxapaySignature(this.merchantApiKey, rawBody, headers);
    return paymentUpdate(parseInput(OxapayPaymentSchema, parseJsonBody(rawBody)));
  }

  protected amountOf(row: PaymentTxRow): number {
    return fromMinor(Number(row.amount_payment_currency), decimalsOf(row.payment_currency));
  }
}

export class OxapayInvoiceProvider extends OxapayDepositProvider implements PaymentProvider {
  readonly type = 'oxapay_link' as const;

  async createDeposit(row: PaymentTxRow): Promise<DepositFields> {
    const invoice = await this.client.createInvoice({
      amount: this.amountOf(row),
      currency: row.payment_currency,
      lifetime: OXAPAY_LIFETIME_MINUTES,
      fee_paid_by_payer: 1,
      under_paid_coverage: 0,
      callback_url: `${this.publicUrl()}${DEPOSIT_WEBHOOK_PATH.oxapay_link}`,
      return_url: `${this.publicUrl()}/trading`,
      order_id: String(row.id),
      description: `TradeTerminal deposit #${row.id}`,
    });
    return { invoice_id: invoice.track_id, payment_url: invoice.payment_url };
  }

  async integrationData(row: PaymentTxRow) {
    return {
      amount: this.amountOf(row),
      currency: row.payment_currency,
      crypto_network: null,
      crypto_wallet_address: null,
      qr_code: null,
      payment_url: row.payment_url,
    };
  }
}

export class OxapayWhiteLabelProvider extends OxapayDepositProvider implements PaymentProvider {
  readonly type = 'crypto_address' as const;

  async createDeposit(row: PaymentTxRow, method: PaymentMethodRow): Promise<DepositFields> {
    const network = oxapayNetwork(method.crypto_network);
    const payment = await this.client.createWhiteLabel({
      pay_currency: row.payment_currency,
      amount: this.amountOf(row),
      currency: row.payment_currency,
      ...(network ? { network } : {}),
      lifetime: OXAPAY_LIFETIME_MINUTES,
      fee_paid_by_payer: 1,
      under_paid_coverage: 0,
      callback_url: `${this.publicUrl()}${DEPOSIT_WEBHOOK_PATH.crypto_address}`,
      order_id: String(row.id),
      description: `TradeTerminal deposit #${row.id}`,
    });
    return { invoice_id: payment.track_id, crypto_wallet_address: payment.address, crypto_network: method.crypto_network };
  }

  async integrationData(row: PaymentTxRow) {
    const d = decimalsOf(row.payment_currency);
    const address = row.crypto_wallet_address;
    return {
      amount: this.amountOf(row),
      currency: row.payment_currency,
      crypto_network: row.crypto_network,
      crypto_wallet_address: address,
      qr_code: address ? await qrDataUrl(paymentUri(row.crypto_network, address, Number(row.amount_payment_currency), d)) : null,
      payment_url: null,
    };
  }

  /** Crypto withdrawals go out as OxaPay payouts (payouts.ts), right after the hold. */
  createWithdrawal(method: PaymentMethodRow): WithdrawalTerms {
    return { estimated_processing_time: method.estimated_processing_time };
  }
}
