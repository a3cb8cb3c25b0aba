/**
 * The payments service the HTTP module uses: the provider registry (manual, crypto address on
 * the simulated chain, payment link with the sandbox checkout), the method catalogue, deposits,
 * withdrawals, the demo reset, the transaction queries, the provider webhooks, the operator's
 * decisions, the sandbox checkout pages and the background jobs (expiry sweeper, cluster
 * adoption, live reconciliation). Built once per server by the composition root
 * (server/composition.ts); the queries are in repository.ts.
 */
import crypto from 'node:crypto';
import { configuredRateTable, findCurrency, type RateTable } from '../../../contract/currencies';
import { fromMinor } from '../../../contract/money';
import {
  DEMO_RESET_MESSAGE,
  type DemoResetResult,
  type DepositConfirmationResult,
  type DepositRequest,
  type DepositResult,
  type PaymentMethod,
  type PaymentMethodsResult,
  type Transaction,
  type TransactionListQuery,
  type TransactionListResult,
  type WithdrawalRequest,
  type WithdrawalResult,
} from '../../../contract/payments';
import { invalid, notFound } from '../errors';
import type { DomainLog } from '../log';
import type { PaymentsMode } from './mode';
import { OxapayClient } from './oxapay/client';
import { OxapayInvoiceProvider, OxapayWhiteLabelProvider } from './oxapay/providers';
import { handlePayoutWebhook, sendPayout, type PayoutResult } from './oxapay/payouts';
import { RECONCILE_INTERVAL_MS, reconcileOxapay, type ReconcileReport } from './oxapay/reconcile';
import { getBalanceMinor, resetDemo } from '../ledger';
import { applyCallback, confirmDeposit, createDeposit, depositResult, expireOverdueDeposits, providerFor, type CallbackResult } from './deposits';
import type { PaymentsDeps } from './deps';
import { listPaymentMethods, seedPaymentMethods, type MethodFilter } from './methods';
import { CryptoAddressProvider, SimulatedChain } from './providers/crypto-address';
import { ManualProvider } from './providers/manual';
import { PaymentLinkProvider, SandboxCheckout, type SandboxPage } from './providers/payment-link';
import type { PaymentProvider, RequestHeaders } from './providers/types';
import { approveTransaction, rejectTransaction, type ReviewOutcome } from './review';
import { cryptoWebhookSecret } from './signing';
import { exportTransactionsCsv, getTransaction, listTransactions } from './transactions';
import { toWireTransaction } from './wire';
import { withdrawalResult, createWithdrawal } from './withdrawals';

export interface PaymentsServiceOptions extends PaymentsDeps {
  log: DomainLog;
  publicUrl: () => string;
  /** Merchant secret of the payment-link provider (the crypto provider's key is derived from it). */
  oxapayWebhookSecret: string;
  cryptoConfirmDelaySeconds: number;
  /** How often pending deposits past their window are expired. */
  sweepIntervalMs?: number;
  /** Retry pauses of the simulated chain's callback delivery. */
  chainRetryDelaysMs?: number[];
  /** PAYMENTS_MODE (mode.ts); sandbox when absent. */
  mode?: PaymentsMode;
  /** OxaPay settings, required in live mode. */
  oxapay?: { apiUrl: string; merchantApiKey: string; payoutApiKey: string; timeoutMs?: number };
  /** How often live mode asks OxaPay about pending deposits and payouts (reconcile.ts). */
  reconcileIntervalMs?: number;
  /**
   * Several nodes (docs/cluster.md): whether this node leads the feed now. The jobs that call
   * out (OxaPay reconciliation) and the adoption of deposits a stopped node was watching run on
   * the leader only. Absent: one node, which runs them all.
   */
  isLeader?: () => boolean;
}

/** Cluster: how often the leader adopts pending deposits no node may be watching. */
export const ADOPT_INTERVAL_MS = 5_000;

export class PaymentsService {
  readonly deps: PaymentsDeps;
  readonly providers: Map<string, PaymentProvider>;
  private readonly checkout: SandboxCheckout;
  readonly cryptoSecret: string;
  private sweeper: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  readonly mode: PaymentsMode;
  /** Live mode only. */
  readonly oxapay: OxapayClient | null = null;
  private reconciler: NodeJS.Timeout | null = null;
  private adopter: NodeJS.Timeout | null = null;
  private reconciling: Promise<ReconcileReport> | null = null;

  constructor(private readonly opts: PaymentsServiceOptions) {
    this.mode = opts.mode ?? 'sandbox';
    this.deps = { db: opts.db, tx: opts.tx, now: opts.now, log: opts.log, mode: this.mode, rates: opts.rates };
    this.cryptoSecret = cryptoWebhookSecret(opts.oxapayWebhookSecret);
    const chain = new SimulatedChain({
      db: opts.db,
      now: opts.now,
      log: opts.log,
      publicUrl: opts.publicUrl,
      secret: this.cryptoSecret,
      delayMs: opts.cryptoConfirmDelaySeconds * 1000,
      retryDelaysMs: opts.chainRetryDelaysMs,
    });
    let list: PaymentProvider[] = [
      new ManualProvider(),
      new CryptoAddressProvider(this.cryptoSecret, chain),
      new PaymentLinkProvider(opts.oxapayWebhookSecret, opts.publicUrl),
    ];
    if (this.mode === 'live') {
      // Live: the crypto integrations are OxaPay's; the simulated chain never runs.
      if (!opts.oxapay) throw new Error('PAYMENTS_MODE=live needs the OxaPay settings');
      this.oxapay = new OxapayClient({ baseUrl: opts.oxapay.apiUrl, merchantApiKey: opts.oxapay.merchantApiKey, payoutApiKey: opts.oxapay.payoutApiKey, timeoutMs: opts.oxapay.timeoutMs });
      list = [
        new ManualProvider(),
        new OxapayWhiteLabelProvider(this.oxapay, opts.oxapay.merchantApiKey, opts.publicUrl),
        new OxapayInvoiceProvider(this.oxapay, opts.oxapay.merchantApiKey, opts.publicUrl),
      ];
    }
    this.providers = new Map(list.map((p) => [p.type, p]));
    this.checkout = new SandboxCheckout({
      db: opts.db,
      now: opts.now,
      log: opts.log,
      publicUrl: opts.publicUrl,
      secret: opts.oxapayWebhookSecret,
    });
  }

  seed(): Promise<number> {
    return this.deps.tx((trx) => seedPaymentMethods(trx, this.deps.now()));
  }

  methods(filter: MethodFilter = {}): Promise<PaymentMethod[]> {
    return listPaymentMethods(this.deps.db, { ...filter, mode: this.mode, rates: this.rates() });
  }

  /** The methods and the rates they were converted with (GET /payments/methods, init_payment_systems). */
  async methodsPayload(filter: MethodFilter = {}): Promise<PaymentMethodsResult> {
    const rates = this.rates();
    return { payment_systems: await listPaymentMethods(this.deps.db, { ...filter, mode: this.mode, rates }), rates };
  }

  /** Every currency against USD: the market's prices, else the configured ones (docs/money.md). */
  rates(): RateTable {
    return this.deps.rates?.table() ?? configuredRateTable();
  }

  async createDeposit(userId: number, input: DepositRequest): Promise<{ result: DepositResult; created: boolean }> {
    const { value, created } = await createDeposit(this.deps, this.providers, userId, input);
    return { result: await depositResult(this.providers, value), created };
  }

  async confirmDeposit(userId: number, transactionId: number): Promise<DepositConfirmationResult> {
    const row = await confirmDeposit(this.deps, this.providers, userId, transactionId);
    return { status: true, transaction: toWireTransaction(row) };
  }

  async createWithdrawal(userId: number, input: WithdrawalRequest): Promise<{ result: WithdrawalResult; created: boolean }> {
    const { value, created } = await createWithdrawal(this.deps, this.providers, userId, input);
    // Live crypto withdrawals go out as OxaPay payouts at once (oxapay/payouts.ts).
    if (created && this.oxapay && this.opts.oxapay && value.integration_type === 'crypto_address') {
      const sent = await sendPayout(this.deps, this.oxapay, this.opts.publicUrl, value);
      return { result: withdrawalResult(sent), created };
    }
    return { result: withdrawalResult(value), created };
  }

  /** Demo balance of one currency back to the standard amount; a fresh key per request. */
  async resetDemoBalance(userId: number, currencyCode: string): Promise<DemoResetResult> {
    const currency = findCurrency(currencyCode);
    if (!currency) throw invalid('Unknown currency');
    const minor = await this.deps.tx(async (trx) => {
      const now = this.deps.now();
      await resetDemo(trx, userId, currency.iso_code, `demo_reset:${userId}:${currency.iso_code}:${crypto.randomUUID()}`, 'demo_reset', now);
      return getBalanceMinor(trx, userId, currency.iso_code, 'demo');
    });
    return { new_balance: { [currency.iso_code]: fromMinor(minor, currency.decimals) }, message: DEMO_RESET_MESSAGE };
  }

  list(userId: number, query: TransactionListQuery): Promise<TransactionListResult> {
    return listTransactions(this.deps.db, userId, query);
  }

  get(userId: number, id: number): Promise<Transaction> {
    return getTransaction(this.deps.db, userId, id);
  }

  csv(userId: number, query: TransactionListQuery): Promise<string> {
    return exportTransactionsCsv(this.deps.db, userId, query);
  }

  /** The sandbox checkout's invoice page (providers/payment-link.ts). */
  checkoutPage(invoiceId: string): Promise<SandboxPage> {
    return this.checkout.page(invoiceId);
  }

  /** Pay or Cancel pressed on the sandbox checkout page, with the form's token. */
  checkoutAction(invoiceId: string, action: 'pay' | 'cancel', token: unknown): Promise<SandboxPage> {
    return this.checkout.act(invoiceId, action, token);
  }

  /** A provider callback: verified and parsed by the adapter, applied by the shared code. */
  async webhook(type: 'crypto_address' | 'oxapay_link', rawBody: Buffer, headers: RequestHeaders): Promise<CallbackResult> {
    const provider = providerFor(this.providers, type);
    if (!provider.handleCallback) throw new Error(`${type} has no callbacks`);
    return applyCallback(this.deps, provider, provider.handleCallback(rawBody, headers));
  }

  /** OxaPay's payout callback (live mode), signed with the payout key. */
  payoutWebhook(rawBody: Buffer, headers: RequestHeaders): Promise<PayoutResult> {
    if (!this.opts.oxapay) throw notFound('Not found');
    return handlePayoutWebhook(this.deps, this.opts.oxapay.payoutApiKey, rawBody, headers);
  }

  /** Live mode: ask OxaPay about open deposits and payouts (reconcile.ts); one run at a time. */
  reconcile(minAgeMs?: number): Promise<ReconcileReport> {
    const client = this.oxapay;
    if (!client) return Promise.resolve({ deposits: 0, payouts: 0, changed: 0, failed: 0 });
    this.reconciling ??= reconcileOxapay(this.deps, client, this.providers, minAgeMs).finally(() => {
      this.reconciling = null;
    });
    return this.reconciling;
  }

  async approve(id: number): Promise<ReviewOutcome> {
    const outcome = await approveTransaction(this.deps, id);
    if (outcome.changed) this.providers.get(outcome.row.integration_type)?.onApproved?.(outcome.row);
    return outcome;
  }

  async reject(id: number, reason?: string): Promise<ReviewOutcome> {
    const outcome = await rejectTransaction(this.deps, id, reason);
    if (outcome.changed) this.providers.get(outcome.row.integration_type)?.onRejected?.(outcome.row);
    return outcome;
  }

  /** Expire deposits left pending past their window (runs on a timer once the server listens). */
  sweep(): Promise<void> {
    this.sweeping ??= expireOverdueDeposits(this.deps)
      .then((rows) => {
        for (const row of rows) this.providers.get(row.integration_type)?.onRejected?.(row);
      })
      .catch((err) => this.opts.log.warn({ err }, 'payments: expiry sweep failed'))
      .finally(() => {
        this.sweeping = null;
      });
    return this.sweeping;
  }

  async start(): Promise<void> {
    for (const p of this.providers.values()) await p.start?.();
    await this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), this.opts.sweepIntervalMs ?? 15_000);
    this.sweeper.unref();
    const isLeader = this.opts.isLeader;
    if (isLeader) {
      this.adopter = setInterval(() => {
        if (!isLeader()) return;
        for (const p of this.providers.values()) p.adopt?.().catch((err) => this.opts.log.warn({ err }, 'payments: adopting deposits failed'));
      }, ADOPT_INTERVAL_MS);
      this.adopter.unref();
    }
    if (this.oxapay) {
      this.reconciler = setInterval(() => {
        if (isLeader && !isLeader()) return;
        this.reconcile().catch((err) => this.opts.log.warn({ err }, 'payments: reconciliation failed'));
      }, this.opts.reconcileIntervalMs ?? RECONCILE_INTERVAL_MS);
      this.reconciler.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    if (this.reconciler) clearInterval(this.reconciler);
    this.reconciler = null;
    if (this.adopter) clearInterval(this.adopter);
    this.adopter = null;
    await this.sweeping;
    await this.reconciling?.catch(() => undefined);
    for (const p of this.providers.values()) await p.stop?.();
  }
}
