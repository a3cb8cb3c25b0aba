/**
 * The white-label crypto integration: every deposit gets its own address on the method's
 * network (USDT on TRC20, BTC on Bitcoin); the payer sends the shown amount there (address,
 * network and a QR code in the answer); the provider's callback
 * POST /api/v2/payments/webhooks/crypto, signed with HMAC-SHA256 of the raw body in header
 * `x-signature`, reports the transfer with its hash, and a confirmed transfer of the exact
 * amount approves and credits the deposit.
 *
 * The chain behind it is a `ChainGateway`. The embedded default is `SimulatedChain`: it
 * allocates well-formed addresses (TRON Base58Check, Bitcoin bech32 P2WPKH) from random bytes
 * nobody holds keys for, and after CRYPTO_CONFIRM_DELAY_SECONDS plays the payer and the
 * provider: it sends the signed "confirmed" callback for the exact amount over real HTTP to this
 * server (retried with backoff like a real provider). The simulated payer pays only the latest
 * address the user asked for: a deposit superseded by a newer crypto-address deposit of the same
 * user within its window stays unpaid and expires. Pending deposits are rescheduled when the
 * server starts, so a restart does not lose them.
 */
import crypto from 'node:crypto';
import * as v from 'valibot';
import { CRYPTO_DEPOSIT_TTL_MS, CRYPTO_SIGNATURE_HEADER, CryptoWebhookSchema, PaymentErrorText, type CryptoWebhook } from '../../../../contract/payments';
import { fromMinor, formatMinor } from '../../../../contract/money';
import type { DB } from '../../../db';
import { invalid, unauthenticated } from '../../errors';
import type { DomainLog } from '../../log';
import { parseInput } from '../../parse';
import { paymentUri, qrDataUrl } from '../qr';
import { findPayment, newerCryptoDeposit, pendingCryptoDeposits } from '../repository';
import { headerValue, verifyHmac } from '../signing';
import { hmacHex } from '../../../infra/crypto';
import { decimalsOf, type PaymentMethodRow, type PaymentTxRow } from '../wire';
import type { CallbackUpdate, DepositFields, PaymentProvider, RequestHeaders, WithdrawalTerms } from './types';

/** Where deposit addresses come from and who reports transfers to them. */
export interface ChainGateway {
  allocateAddress(network: string): string;
  /** Start watching a committed deposit's address. */
  watch(row: PaymentTxRow): void;
  /** Stop watching (the deposit is final). */
  forget(transactionId: number): void;
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /** Cluster (docs/cluster.md): also watch pending deposits another node was watching. */
  adopt?(): Promise<void>;
}

export class CryptoAddressProvider implements PaymentProvider {
  readonly type = 'crypto_address' as const;
  readonly depositTtlMs = CRYPTO_DEPOSIT_TTL_MS;

  constructor(
    private readonly secret: string,
    private readonly chain: ChainGateway,
  ) {}

  async createDeposit(_row: PaymentTxRow, method: PaymentMethodRow): Promise<DepositFields> {
    const network = method.crypto_network ?? 'TRC20';
    return { crypto_wallet_address: this.chain.allocateAddress(network), crypto_network: network };
  }

  onCreated(row: PaymentTxRow): void {
    this.chain.watch(row);
  }

  async integrationData(row: PaymentTxRow) {
    const d = decimalsOf(row.payment_currency);
    const address = row.crypto_wallet_address;
    return {
      amount: fromMinor(Number(row.amount_payment_currency), d),
      currency: row.payment_currency,
      crypto_network: row.crypto_network,
      crypto_wallet_address: address,
      qr_code: address ? await qrDataUrl(paymentUri(row.crypto_network, address, Number(row.amount_payment_currency), d)) : null,
      payment_url: null,
    };
  }

  handleCallback(rawBody: Buffer, headers: RequestHeaders): CallbackUpdate {
    if (!verifyHmac('sha256', this.secret, rawBody, headerValue(headers, CRYPTO_SIGNATURE_HEADER))) {
      throw unauthenticated(PaymentErrorText.invalidSignature);
    }
    const body = parseJsonBody(rawBody);
    const p: CryptoWebhook = parseInput(CryptoWebhookSchema, body);
    const outcome = p.status === 'confirmed' ? 'approved' : p.status === 'confirming' ? 'processing' : 'failed';
    return {
      lookup: { address: p.address },
      orderId: p.order_id,
      outcome,
      amount: String(p.amount),
      currency: p.currency.toUpperCase(),
      txHash: p.tx_hash.toLowerCase().replace(/^0x/, ''),
      errorMessage: outcome === 'failed' ? 'The transfer failed on the network' : null,
    };
  }

  createWithdrawal(method: PaymentMethodRow): WithdrawalTerms {
    return { estimated_processing_time: method.estimated_processing_time };
  }

  onApproved(row: PaymentTxRow): void {
    this.chain.forget(row.id);
  }

  onRejected(row: PaymentTxRow): void {
    this.chain.forget(row.id);
  }

  start(): Promise<void> {
    return this.chain.start?.() ?? Promise.resolve();
  }

  stop(): Promise<void> {
    return this.chain.stop?.() ?? Promise.resolve();
  }

  adopt(): Promise<void> {
    return this.chain.adopt?.() ?? Promise.resolve();
  }
}

/** A webhook body as JSON; anything else is a 400 (after the signature matched). */
export function parseJsonBody(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalid('Malformed JSON body');
  }
}

// ---- addresses ----------------------------------------------------------------------------

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(bytes: Buffer): string {
  let n = BigInt('0x' + bytes.toString('hex'));
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest();

/** A TRON address: Base58Check of 0x41 + a 20-byte account id. */
export function tronAddress(accountId: Buffer): string {
  const payload = Buffer.concat([Buffer.from([0x41]), accountId]);
  return base58(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]));
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function bech32Polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const value of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i];
  }
  return chk >>> 0;
}

/** A Bitcoin native SegWit v0 (P2WPKH) address for a 20-byte key hash, BIP-173 bech32. */
export function bitcoinAddress(keyHash: Buffer, hrp = 'bc'): string {
  const data = [0];
  let acc = 0;
  let bits = 0;
  for (const byte of keyHash) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      data.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) data.push((acc << (5 - bits)) & 31);
  const hrpExpanded = [...hrp].map((c) => c.charCodeAt(0) >> 5).concat([0], [...hrp].map((c) => c.charCodeAt(0) & 31));
  const polymod = bech32Polymod([...hrpExpanded, ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (polymod >>> (5 * (5 - i))) & 31);
  return hrp + '1' + [...data, ...checksum].map((d) => BECH32[d]).join('');
}

// ---- the simulated chain ------------------------------------------------------------------

export interface SimulatedChainOptions {
  db: DB;
  now: () => number;
  log: DomainLog;
  /** Base address of this server; the callback goes to `${publicUrl()}/api/v2/payments/webhooks/crypto`. */
  publicUrl: () => string;
  secret: string;
  /** How long after the deposit the transfer "confirms". */
  delayMs: number;
  /** Pauses between delivery attempts of one callback (the first attempt is immediate). */
  retryDelaysMs?: number[];
}

/** The callback the simulated provider sends, signed; exported so tests can forge look-alikes. */
export function signedCryptoCallback(secret: string, payload: CryptoWebhook): { body: string; signature: string } {
  const body = JSON.stringify(payload);
  return { body, signature: hmacHex('sha256', secret, body) };
}

export class SimulatedChain implements ChainGateway {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  /** Deposits whose callback is being sent (adopt leaves them be). */
  private readonly confirming = new Set<number>();
  private stopped = true;

  constructor(private readonly opts: SimulatedChainOptions) {}

  allocateAddress(network: string): string {
    const id = crypto.randomBytes(20);
    if (network === 'Bitcoin') return bitcoinAddress(id);
    if (network === 'TRC20') return tronAddress(id);
    return '0x' + id.toString('hex');
  }

  watch(row: PaymentTxRow): void {
    this.schedule(row.id, Number(row.created_at) + this.opts.delayMs - this.opts.now());
  }

  forget(transactionId: number): void {
    const t = this.timers.get(transactionId);
    if (t) clearTimeout(t);
    this.timers.delete(transactionId);
  }

  /** Reschedule every pending crypto deposit (a restart must not lose one). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.adopt();
  }

  /**
   * Watch every pending crypto deposit not watched here yet (start; in a cluster the feed leader
   * also calls it periodically, for deposits a stopped node was watching). The callback's effect
   * is claimed (`status = 'pending'`, ledger key `deposit:<id>:credit`): a deposit two nodes
   * confirm is credited once.
   */
  async adopt(): Promise<void> {
    if (this.stopped) return;
    const rows = await pendingCryptoDeposits(this.opts.db);
    for (const row of rows) if (!this.timers.has(row.id) && !this.confirming.has(row.id)) this.watch(row);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private schedule(id: number, delayMs: number): void {
    if (this.stopped) return;
    this.forget(id);
    const timer = setTimeout(() => {
      this.timers.delete(id);
      this.confirming.add(id);
      void this.confirm(id)
        .catch((err) => this.opts.log.warn({ err, transaction_id: id }, 'simulated chain: confirmation failed'))
        .finally(() => this.confirming.delete(id));
    }, Math.max(0, delayMs));
    timer.unref();
    this.timers.set(id, timer);
  }

  /**
   * A newer crypto-address deposit of the same user, created while this one was still open: the
   * payer went Back (or closed the wizard) and asked for another address, so the simulated payer
   * pays that one and leaves this one unpaid (it expires at the end of its window).
   */
  private supersededBy(row: PaymentTxRow): Promise<number | null> {
    return newerCryptoDeposit(this.opts.db, row);
  }

  /** The transfer of the exact amount "confirms": send the provider's signed callback. */
  private async confirm(id: number): Promise<void> {
    const row = await findPayment(this.opts.db, id);
    if (!row || row.status !== 'pending' || !row.crypto_wallet_address) return;
    const newer = await this.supersededBy(row);
    if (newer !== null) {
      this.opts.log.info({ transaction_id: id, superseded_by: newer }, 'simulated chain: deposit superseded by a newer one, not paid');
      return;
    }
    const network = row.crypto_network ?? 'TRC20';
    const payload: CryptoWebhook = {
      event_id: crypto.randomUUID(),
      order_id: String(row.id),
      address: row.crypto_wallet_address,
      network,
      currency: row.payment_currency,
      amount: formatMinor(Number(row.amount_payment_currency), decimalsOf(row.payment_currency)),
      tx_hash: crypto.randomBytes(32).toString('hex'),
      confirmations: network === 'Bitcoin' ? 2 : 20,
      status: 'confirmed',
      date: Math.floor(this.opts.now() / 1000),
    };
    v.parse(CryptoWebhookSchema, payload);
    const { body, signature } = signedCryptoCallback(this.opts.secret, payload);
    const pauses = [0, ...(this.opts.retryDelaysMs ?? [1000, 5000, 30_000, 120_000])];
    for (const [attempt, pause] of pauses.entries()) {
      if (pause > 0) await sleep(pause);
      if (this.stopped) return;
      try {
        const res = await fetch(`${this.opts.publicUrl()}/api/v2/payments/webhooks/crypto`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [CRYPTO_SIGNATURE_HEADER]: signature },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        if (res.ok) return;
        // A 4xx means the merchant refuses this callback; sending it again changes nothing.
        if (res.status >= 400 && res.status < 500 && res.status !== 429) {
          this.opts.log.warn({ transaction_id: id, status: res.status }, 'simulated chain: callback refused');
          return;
        }
      } catch (err) {
        this.opts.log.info({ err, transaction_id: id, attempt }, 'simulated chain: callback not delivered, will retry');
      }
    }
    this.opts.log.warn({ transaction_id: id }, 'simulated chain: callback given up after retries');
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
