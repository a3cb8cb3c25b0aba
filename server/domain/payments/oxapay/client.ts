/**
 * The OxaPay v1 HTTP client (live mode). Every call has a timeout; its failures are one of
 *
 *   refused      OxaPay answered and said no (HTTP 4xx, or an envelope whose status is not
 *                200, or a `data` that is not what the docs describe): nothing was created.
 *   unavailable  no answer in time, a network error or a 5xx: the outcome is UNKNOWN (a payout
 *                may have been created); callers decide what that means for their row.
 *
 * Keys travel in the headers the docs name (`merchant_api_key`, `payout_api_key`); the keys
 * never appear in logs or errors.
 */
import * as v from 'valibot';
import {
  OXAPAY_MERCHANT_KEY_HEADER,
  OXAPAY_PAYOUT_KEY_HEADER,
  OxapayEnvelopeSchema,
  OxapayInvoiceDataSchema,
  OxapayPaymentSchema,
  OxapayPayoutDataSchema,
  OxapayPayoutSchema,
  OxapayWhiteLabelDataSchema,
  type OxapayInvoiceData,
  type OxapayPayment,
  type OxapayPayout,
  type OxapayPayoutData,
  type OxapayWhiteLabelData,
} from '../../../../contract/oxapay';

export class OxapayError extends Error {
  constructor(
    readonly kind: 'refused' | 'unavailable',
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }
}

export interface OxapayClientOptions {
  baseUrl: string;
  merchantApiKey: string;
  payoutApiKey: string;
  /** Per request; default 10 s. */
  timeoutMs?: number;
}

export interface InvoiceRequest {
  amount: number;
  currency: string;
  lifetime: number;
  fee_paid_by_payer: number;
  under_paid_coverage: number;
  callback_url: string;
  return_url: string;
  order_id: string;
  description: string;
}

export interface WhiteLabelRequest {
  pay_currency: string;
  amount: number;
  currency: string;
  network?: string;
  lifetime: number;
  fee_paid_by_payer: number;
  under_paid_coverage: number;
  callback_url: string;
  order_id: string;
  description: string;
}

export interface PayoutRequest {
  address: string;
  currency: string;
  amount: number;
  network?: string;
  callback_url: string;
  description: string;
}

export class OxapayClient {
  constructor(private readonly opts: OxapayClientOptions) {}

  createInvoice(body: InvoiceRequest): Promise<OxapayInvoiceData> {
    return this.call('POST', '/v1/payment/invoice', 'merchant', body, OxapayInvoiceDataSchema);
  }

  createWhiteLabel(body: WhiteLabelRequest): Promise<OxapayWhiteLabelData> {
    return this.call('POST', '/v1/payment/white-label', 'merchant', body, OxapayWhiteLabelDataSchema);
  }

  paymentInfo(trackId: string): Promise<OxapayPayment> {
    return this.call('GET', `/v1/payment/${encodeURIComponent(trackId)}`, 'merchant', undefined, OxapayPaymentSchema);
  }

  createPayout(body: PayoutRequest): Promise<OxapayPayoutData> {
    return this.call('POST', '/v1/payout', 'payout', body, OxapayPayoutDataSchema);
  }

  payoutInfo(trackId: string): Promise<OxapayPayout> {
    return this.call('GET', `/v1/payout/${encodeURIComponent(trackId)}`, 'payout', undefined, OxapayPayoutSchema);
  }

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    key: 'merchant' | 'payout',
    body: unknown,
    schema: v.GenericSchema<unknown, T>,
  ): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (key === 'merchant') headers[OXAPAY_MERCHANT_KEY_HEADER] = this.opts.merchantApiKey;
    else headers[OXAPAY_PAYOUT_KEY_HEADER] = this.opts.payoutApiKey;
    let res: Response;
    let raw: string;
    try {
      res = await fetch(this.opts.baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
      raw = await res.text();
    } catch (err) {
      const timedOut = (err as { name?: string }).name === 'TimeoutError';
      throw new OxapayError('unavailable', timedOut ? `OxaPay ${method} ${path}: no answer in time` : `OxaPay ${method} ${path}: ${(err as Error).message}`);
    }
    if (res.status >= 500) throw new OxapayError('unavailable', `OxaPay ${method} ${path}: HTTP ${res.status}`, res.status);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new OxapayError(res.ok ? 'unavailable' : 'refused', `OxaPay ${method} ${path}: HTTP ${res.status}, not JSON`, res.status);
    }
    const envelope = v.safeParse(OxapayEnvelopeSchema, json);
    const errorMessage =
      envelope.success && envelope.output.error && !Array.isArray(envelope.output.error) ? envelope.output.error.message : undefined;
    if (!res.ok || !envelope.success || (envelope.output.status !== undefined && envelope.output.status !== 200)) {
      const said = errorMessage ?? (envelope.success ? envelope.output.message : undefined) ?? '';
      throw new OxapayError('refused', `OxaPay ${method} ${path}: HTTP ${res.status} ${said}`.trim(), res.status);
    }
    const data = v.safeParse(schema, envelope.output.data);
    if (!data.success) throw new OxapayError('refused', `OxaPay ${method} ${path}: unexpected answer (${data.issues[0]?.message ?? 'bad data'})`, res.status);
    return data.output;
  }
}
