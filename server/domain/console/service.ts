/**
 * The operator console's rules (issue 27): what each console screen reads, and every change an
 * operator makes, each in one transaction with its audit row (server/domain/audit). Changes that
 * need a second operator (a large withdrawal, a risk-limit raise, a manual balance adjustment,
 * enabling a disabled pair) become four-eyes requests (server/domain/approvals) instead; the
 * approval carries them out (executors.ts). The role checks are the routes' guard's
 * (server/http/operator-auth.ts); the approvals service checks the approver's role itself.
 *
 * The tables read here belong to other areas; this service calls their query functions
 * (auth/console-queries, profile/console-queries, payments/repository, orders, ledger, market).
 */
import {
  ConsoleText,
  OPEN_AS_TTL_MS,
  type AdjustmentInput,
  type Approval,
  type ApprovalQuery,
  type AuditEntry,
  type AuditQuery,
  type AuditVerify,
  type Books,
  type ConsoleDocument,
  type ConsolePairs,
  type ConsolePayment,
  type ConsoleUser,
  type Dashboard,
  type Exposure,
  type KycQuery,
  type MaybeApproval,
  type OpenAsResult,
  type PaymentDecision,
  type PaymentQuery,
  type Pnl,
  type RiskLimits,
  type UserDetail,
  type UserListQuery,
} from '../../../contract/console';
import { findCurrency } from '../../../contract/currencies';
import { toMinor } from '../../../contract/money';
import type { Trx } from '../../db';
import { randomToken } from '../../infra/crypto';
import { appendAudit, verifyAudit } from '../audit/service';
import { listAudit, type AuditRow } from '../audit/repository';
import type { OperatorActor } from '../approvals/service';
import { adminLink, createAdminToken } from '../auth/admin';
import { consoleUserRow, searchUsers, setUserBlocked, type ConsoleUserRow } from '../auth/console-queries';
import { conflict, invalid, notFound } from '../errors';
import { balanceRowsOf, readBooks } from '../ledger';
import { listPairRows, pairActive, setPairActive } from '../market/pair-admin';
import { readExposure, pairLimitUsdMinor } from '../orders/exposure';
import { closedOrdersByDay, listPairLimits, openAndOverdueCounts, pageOfUserOrders, setPairLimit } from '../orders/repository';
import type { OrderRow } from '../orders/wire';
import { approveTransaction, rejectTransaction } from '../payments/review';
import { findPayment, pageOfPaymentsForConsole, paymentTotalsSince, pendingWithdrawalCount } from '../payments/repository';
import { isLatePaymentReview } from '../payments/status';
import { paymentDetailsOf, type PaymentTxRow } from '../payments/wire';
import { documentFileForOperator, kycPage, nicknamesOf, userIdsByNickname, type KycDocument } from '../profile/console-queries';
import { emailSupportSession } from '../profile/email-notify';
import { reviewDocument } from '../profile/documents';
import type { ConsoleDeps } from './deps';

const DAY_MS = 86_400_000;
/** An open order this long past its expiry means settlement is behind. */
const SETTLEMENT_GRACE_MS = 30_000;
/** A pair whose last tick is older than this counts as stale on the dashboard. */
const FEED_STALE_MS = 60_000;

export interface Page {
  offset: number;
  limit: number;
}
export const pageOf = (q: { page: number; per_page: number }): Page => ({ offset: (q.page - 1) * q.per_page, limit: q.per_page });

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function toConsoleUser(r: ConsoleUserRow, nickname: string | null): ConsoleUser {
  return {
    id: Number(r.id),
    username: r.username,
    email: r.email,
    nickname,
    first_name: r.first_name,
    last_name: r.last_name,
    currency: r.currency,
    created_at_ms: Number(r.created_at),
    email_verified: r.email_verified_at !== null,
    two_factor_enabled: Number(r.two_factor_enabled) === 1,
    blocked_at_ms: r.blocked_at === null ? null : Number(r.blocked_at),
    blocked_reason: r.blocked_reason,
  };
}

function toDocument(d: KycDocument): ConsoleDocument {
  return {
    id: d.id,
    user_id: d.user_id,
    type: d.type,
    status: d.status,
    rejection_reason: d.rejection_reason,
    files: d.files,
    created_at_ms: d.created_at * (d.created_at < 1e12 ? 1000 : 1),
    reviewed_at_ms: d.reviewed_at === null ? null : d.reviewed_at * (d.reviewed_at < 1e12 ? 1000 : 1),
  };
}

function toOrder(r: OrderRow) {
  return {
    id: Number(r.id),
    pair: r.pair_code,
    direction: r.direction,
    account: r.account,
    currency: r.currency,
    stake_minor: Number(r.stake),
    payout_minor: r.payout === null ? null : Number(r.payout),
    status: r.status,
    created_at_ms: Number(r.accepted_at),
    expires_at_ms: Number(r.expires_at),
  };
}

function toAudit(r: AuditRow): AuditEntry {
  const parse = (s: string | null) => (s === null ? null : (JSON.parse(s) as unknown));
  return {
    id: Number(r.id),
    operator_id: r.operator_id === null ? null : Number(r.operator_id),
    operator_name: r.operator_name,
    role: r.role,
    action: r.action,
    target_type: r.target_type,
    target_id: r.target_id,
    reason: r.reason,
    before: parse(r.before_json),
    after: parse(r.after_json),
    ip: r.ip,
    source: r.source as AuditEntry['source'],
    os_user: r.os_user,
    created_at_ms: Number(r.created_at),
    hash: r.hash,
  };
}

export class ConsoleService {
  constructor(private readonly deps: ConsoleDeps) {}

  // ---- four-eyes thresholds --------------------------------------------------------------------

  /** Whether a withdrawal of `amountMinor` in `currency` needs a second operator. */
  needsSecondApproval(currency: string, amountMinor: number): boolean {
    const cur = findCurrency(currency);
    if (!cur) return true;
    const own = this.deps.fourEyes.withdrawalLimits[cur.iso_code];
    if (own !== undefined) {
      const limit = toMinor(own, cur.decimals);
      return limit === null || amountMinor >= limit;
    }
    const perUsd = this.deps.fx.perUsd(cur.iso_code);
    if (!(perUsd > 0)) return true;
    const usd = amountMinor / 10 ** cur.decimals / perUsd;
    return usd >= this.deps.fourEyes.withdrawalUsd;
  }

  private toPayment(r: PaymentTxRow): ConsolePayment {
    return {
      id: Number(r.id),
      user_id: Number(r.user_id),
      type: r.transaction_type,
      status: r.status,
      method: r.method_name,
      currency: r.currency,
      amount_minor: Number(r.amount),
      requisites: r.transaction_type === 'withdrawal' ? (paymentDetailsOf(r)?.requisites ?? r.crypto_wallet_address ?? null) : null,
      error_message: r.error_message,
      late_payment: isLatePaymentReview(r),
      needs_second_approval: r.transaction_type === 'withdrawal' && this.needsSecondApproval(r.currency, Number(r.amount)),
      created_at_ms: Number(r.created_at),
      updated_at_ms: Number(r.updated_at),
    };
  }

  // ---- dashboard -------------------------------------------------------------------------------

  async dashboard(): Promise<Dashboard> {
    const { db } = this.deps;
    const now = this.deps.now();
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
    const [deposits, withdrawals, closed, exposure, kyc, pendingWithdrawals, approvals, orders, support] = await Promise.all([
      paymentTotalsSince(db, 'deposit', dayStart),
      paymentTotalsSince(db, 'withdrawal', dayStart),
      closedOrdersByDay(db, dayStart, dayStart + DAY_MS, DAY_MS),
      readExposure(db, this.deps.riskMaxPairLossUsd, (c) => this.deps.fx.perUsd(c)),
      kycPage(db, { status: 'pending', offset: 0, limit: 1 }),
      pendingWithdrawalCount(db),
      this.deps.approvals.pendingCount(),
      openAndOverdueCounts(db, now, SETTLEMENT_GRACE_MS),
      this.deps.supportOpenCount ? this.deps.supportOpenCount() : Promise.resolve(0),
    ]);
    const house: Record<string, number> = {};
    for (const r of closed) if (r.account !== 'demo') house[r.currency] = (house[r.currency] ?? 0) + Number(r.stakes) - Number(r.payouts);
    const active = this.deps.market.listPairs().filter((p) => p.is_active);
    let newest: number | null = null;
    let stale = 0;
    for (const p of active) {
      const t = this.deps.market.latestTick(p.pair_code);
      if (!t || now - t.time > FEED_STALE_MS) stale++;
      if (t && (newest === null || t.time > newest)) newest = t.time;
    }
    const lastAge = newest === null ? null : Math.max(0, now - newest);
    return {
      day: dayText(now),
      deposits,
      withdrawals,
      house_result: house,
      open_exposure_usd_minor: exposure.reduce((s, p) => s + p.worst_case_usd_minor, 0),
      queues: { kyc_pending: kyc.total, withdrawals_pending: pendingWithdrawals, approvals_pending: approvals, support_open: support },
      health: {
        feed: { ok: lastAge !== null && lastAge < FEED_STALE_MS, last_tick_age_ms: lastAge, stale_pairs: stale },
        settlement: { ok: orders.overdue === 0, open_orders: orders.open, overdue_orders: orders.overdue },
      },
    };
  }

  // ---- users -----------------------------------------------------------------------------------

  async users(q: Pick<UserListQuery, 'q' | 'status' | 'sort' | 'dir'>, page: Page): Promise<{ users: ConsoleUser[]; total: number }> {
    const alsoIds = q.q ? await userIdsByNickname(this.deps.db, q.q, 200) : [];
    const { rows, total } = await searchUsers(this.deps.db, { q: q.q, alsoIds, status: q.status, sort: q.sort, dir: q.dir, ...page });
    const nicks = await nicknamesOf(this.deps.db, rows.map((r) => Number(r.id)));
    return { users: rows.map((r) => toConsoleUser(r, nicks.get(Number(r.id)) ?? null)), total };
  }

  private async user(userId: number): Promise<ConsoleUser> {
    const row = await consoleUserRow(this.deps.db, userId);
    if (!row) throw notFound(ConsoleText.userNotFound);
    const nicks = await nicknamesOf(this.deps.db, [userId]);
    return toConsoleUser(row, nicks.get(userId) ?? null);
  }

  async userDetail(userId: number): Promise<UserDetail> {
    const user = await this.user(userId);
    const { db } = this.deps;
    const [balances, orders, payments, documents] = await Promise.all([
      balanceRowsOf(db, userId),
      pageOfUserOrders(db, userId, {}, { limit: 50, offset: 0 }),
      pageOfPaymentsForConsole(db, { type: 'all', status: 'all', userId, latePayments: false }, 0, 50),
      kycPage(db, { status: 'all', userId, offset: 0, limit: 50 }),
    ]);
    return {
      user,
      balances: balances.map((b) => ({ currency: b.currency, account: b.account, amount_minor: b.amount })),
      orders: orders.rows.map(toOrder),
      transactions: payments.rows.map((r) => this.toPayment(r)),
      documents: documents.rows.map(toDocument),
      limits: { default_pair_loss_usd_minor: this.deps.riskMaxPairLossUsd * 100 },
    };
  }

  async setBlocked(userId: number, block: boolean, reason: string, actor: OperatorActor): Promise<ConsoleUser> {
    const before = await this.user(userId);
    if (block && before.blocked_at_ms !== null) throw conflict(ConsoleText.alreadyBlocked);
    if (!block && before.blocked_at_ms === null) throw conflict(ConsoleText.notBlocked);
    const now = this.deps.now();
    await this.deps.tx(async (trx) => {
      await setUserBlocked(trx, userId, block ? { reason } : null, now);
      await appendAudit(
        trx,
        actor,
        { action: block ? 'user.block' : 'user.unblock', targetType: 'user', targetId: userId, reason, before: { blocked: !block }, after: { blocked: block } },
        now,
      );
    });
    return this.user(userId);
  }

  /**
   * "Open as user": a one-time link to the trader app as an admin session of this user, valid
   * OPEN_AS_TTL_MS; the session is read-only for money (orders, deposits, withdrawals refused).
   * Audited; the user is told by email when their email notifications are on.
   */
  async openAs(userId: number, reason: string, actor: OperatorActor): Promise<OpenAsResult> {
    const user = await this.user(userId);
    const now = this.deps.now();
    const token = await this.deps.tx(async (trx) => {
      const t = await createAdminToken(trx, userId, OPEN_AS_TTL_MS / 1000, now);
      await appendAudit(trx, actor, { action: 'user.open_as', targetType: 'user', targetId: userId, reason, after: { username: user.username, expires_at: now + OPEN_AS_TTL_MS } }, now);
      return t;
    });
    await emailSupportSession({ db: this.deps.db, mailer: this.deps.mailer }, userId);
    return { link: adminLink(this.deps.publicUrl(), token), expires_at_ms: now + OPEN_AS_TTL_MS };
  }

  /** A manual adjustment of the user's real balance: always a four-eyes request. */
  async requestAdjustment(userId: number, input: AdjustmentInput, actor: OperatorActor): Promise<Approval> {
    await this.user(userId);
    const cur = findCurrency(input.currency);
    if (!cur) throw invalid(ConsoleText.amountInvalid);
    const negative = input.amount.startsWith('-');
    const abs = toMinor(negative ? input.amount.slice(1) : input.amount, cur.decimals);
    if (abs === null || abs === 0) throw invalid(ConsoleText.amountInvalid, [{ field: 'amount', message: ConsoleText.amountInvalid }]);
    const amount = negative ? -abs : abs;
    const id = await this.deps.tx((trx) =>
      this.deps.approvals.requestIn(
        trx,
        {
          kind: 'balance_adjustment',
          payload: { user_id: userId, currency: cur.iso_code, amount_minor: amount },
          targetType: 'user',
          // Each adjustment is its own request (two different corrections of one user may wait together).
          targetId: `${userId}:${randomToken(6)}`,
          reason: input.reason,
        },
        actor,
        this.deps.now(),
      ),
    );
    return this.deps.approvals.get(id);
  }

  // ---- KYC -------------------------------------------------------------------------------------

  async kyc(q: Pick<KycQuery, 'status'>, page: Page): Promise<{ documents: ConsoleDocument[]; total: number }> {
    const { rows, total } = await kycPage(this.deps.db, { status: q.status, ...page });
    return { documents: rows.map(toDocument), total };
  }

  /** A document file for a reviewer; each view is audited. */
  async kycFile(fileId: number, actor: OperatorActor): Promise<{ name: string; mime: string; data: Buffer }> {
    const file = await documentFileForOperator(this.deps.db, this.deps.dataDir, fileId);
    await this.deps.tx((trx) => appendAudit(trx, actor, { action: 'kyc.file_view', targetType: 'document', targetId: file.documentId, after: { file_id: fileId, user_id: file.userId } }, this.deps.now()));
    return file;
  }

  async decideKyc(documentId: number, approve: boolean, reason: string, actor: OperatorActor): Promise<ConsoleDocument> {
    const outcome = await reviewDocument(this.deps, documentId, approve ? { status: 'approved' } : { status: 'rejected', reason }, async (trx, before) => {
      await appendAudit(
        trx,
        actor,
        { action: approve ? 'kyc.approve' : 'kyc.reject', targetType: 'document', targetId: documentId, reason: reason || null, before: { status: before }, after: { status: approve ? 'approved' : 'rejected' } },
        this.deps.now(),
      );
    });
    const { rows } = await kycPage(this.deps.db, { status: 'all', userId: outcome.document.user_id, offset: 0, limit: 1000 });
    const doc = rows.find((d) => d.id === documentId);
    if (!doc) throw notFound(ConsoleText.documentNotFound);
    return toDocument(doc);
  }

  // ---- payments --------------------------------------------------------------------------------

  async payments(q: Pick<PaymentQuery, 'type' | 'status' | 'user_id' | 'late'>, page: Page): Promise<{ payments: ConsolePayment[]; total: number }> {
    const { rows, total } = await pageOfPaymentsForConsole(this.deps.db, { type: q.type, status: q.status, userId: q.user_id, latePayments: q.late === '1' }, page.offset, page.limit);
    return { payments: rows.map((r) => this.toPayment(r)), total };
  }

  private async payment(id: number): Promise<PaymentTxRow> {
    const row = await findPayment(this.deps.db, id);
    if (!row) throw notFound(`Transaction not found: #${id}`);
    return row;
  }

  /**
   * Approve a deposit (credit) or a withdrawal (pay out) through the payments area's review step
   * (the one `admin tx approve` uses), audited in its transaction. A withdrawal at or over the
   * four-eyes threshold becomes a request instead: this operator's approval is the first pair of
   * eyes; another finance operator's approval (of the request, or of the payment here, which
   * approves its pending request) pays it out. The requester approving again is refused (403 +
   * audit row) like the request's own approval.
   */
  async approvePayment(id: number, reason: string, actor: OperatorActor): Promise<PaymentDecision> {
    const row = await this.payment(id);
    const pd = { db: this.deps.db, tx: this.deps.tx, now: this.deps.now };
    if (row.transaction_type === 'withdrawal' && this.needsSecondApproval(row.currency, Number(row.amount))) {
      if (row.status !== 'pending' && row.status !== 'processing') throw conflict(`Transaction #${id} is ${row.status} and cannot be approved`);
      const waiting = await this.deps.approvals.pendingFor('withdrawal', 'payment', id);
      if (waiting) {
        const approval = await this.deps.approvals.approve(waiting.id, actor, reason);
        return { payment: this.toPayment(await this.payment(id)), approval };
      }
      const approvalId = await this.deps.tx((trx) =>
        this.deps.approvals.requestIn(
          trx,
          { kind: 'withdrawal', payload: { payment_id: id, currency: row.currency, amount_minor: Number(row.amount), user_id: Number(row.user_id) }, targetType: 'payment', targetId: id, reason: reason || 'approved by the first operator' },
          actor,
          this.deps.now(),
        ),
      );
      return { payment: this.toPayment(await this.payment(id)), approval: await this.deps.approvals.get(approvalId) };
    }
    const outcome = await approveTransaction(pd, id, (trx, before, after) => this.auditPayment(trx, actor, 'payment.approve', reason, before, after));
    return { payment: this.toPayment(outcome.row), approval: null };
  }

  async rejectPayment(id: number, reason: string, actor: OperatorActor): Promise<PaymentDecision> {
    const pd = { db: this.deps.db, tx: this.deps.tx, now: this.deps.now };
    const outcome = await rejectTransaction(pd, id, reason, async (trx, before, after) => {
      await this.auditPayment(trx, actor, 'payment.reject', reason, before, after);
      // A large withdrawal waiting for its second approval: the request ends with it.
      if (after.transaction_type === 'withdrawal') await this.deps.approvals.closePendingIn(trx, 'withdrawal', 'payment', id, actor, reason, this.deps.now());
    });
    return { payment: this.toPayment(outcome.row), approval: null };
  }

  private async auditPayment(trx: Trx, actor: OperatorActor, action: string, reason: string, before: PaymentTxRow, after: PaymentTxRow): Promise<void> {
    await appendAudit(
      trx,
      actor,
      {
        action,
        targetType: 'payment',
        targetId: Number(before.id),
        reason: reason || null,
        before: { status: before.status },
        after: { status: after.status, type: after.transaction_type, currency: after.currency, amount_minor: Number(after.amount), user_id: Number(after.user_id) },
      },
      this.deps.now(),
    );
  }

  // ---- approvals -------------------------------------------------------------------------------

  async approvals(q: Pick<ApprovalQuery, 'status' | 'kind'>, page: { page: number; per_page: number }): Promise<{ approvals: Approval[]; total: number }> {
    return this.deps.approvals.list({ ...q, ...page });
  }

  approve(id: number, reason: string, actor: OperatorActor): Promise<Approval> {
    return this.deps.approvals.approve(id, actor, reason);
  }

  reject(id: number, reason: string, actor: OperatorActor): Promise<Approval> {
    return this.deps.approvals.reject(id, actor, reason);
  }

  // ---- books, P&L, exposure, risk, pairs ------------------------------------------------------------

  async books(): Promise<Books> {
    return readBooks(this.deps.db);
  }

  /** Real orders' house result per UTC day and currency in [from, to] (defaults: the last 30 days), days without orders as 0. */
  async pnl(from?: string, to?: string): Promise<Pnl> {
    const now = this.deps.now();
    const parse = (s: string) => {
      const ms = Date.parse(`${s}T00:00:00Z`);
      if (Number.isNaN(ms) || dayText(ms) !== s) throw invalid(ConsoleText.dateInvalid);
      return ms;
    };
    const toMs = to ? parse(to) : Math.floor(now / DAY_MS) * DAY_MS;
    const fromMs = from ? parse(from) : toMs - 29 * DAY_MS;
    if (fromMs > toMs || toMs - fromMs > 366 * DAY_MS) throw invalid(ConsoleText.dateInvalid);
    const rows = await closedOrdersByDay(this.deps.db, fromMs, toMs + DAY_MS, DAY_MS);
    const points = new Map<string, { day: string; currency: string; orders: number; stakes_minor: number; payouts_minor: number; house_result_minor: number }>();
    const currencies = new Set<string>();
    for (const r of rows) {
      if (r.account === 'demo') continue;
      const day = dayText(Number(r.day) * DAY_MS);
      currencies.add(r.currency);
      const key = `${day}|${r.currency}`;
      const p = points.get(key) ?? { day, currency: r.currency, orders: 0, stakes_minor: 0, payouts_minor: 0, house_result_minor: 0 };
      p.orders += Number(r.orders);
      p.stakes_minor += Number(r.stakes);
      p.payouts_minor += Number(r.payouts);
      p.house_result_minor = p.stakes_minor - p.payouts_minor;
      points.set(key, p);
    }
    const series = [];
    const totals: Record<string, number> = {};
    for (let d = fromMs; d <= toMs; d += DAY_MS) {
      for (const currency of [...currencies].sort()) {
        const p = points.get(`${dayText(d)}|${currency}`) ?? { day: dayText(d), currency, orders: 0, stakes_minor: 0, payouts_minor: 0, house_result_minor: 0 };
        totals[currency] = (totals[currency] ?? 0) + p.house_result_minor;
        series.push(p);
      }
    }
    return { from: dayText(fromMs), to: dayText(toMs), series, totals };
  }

  async exposure(): Promise<Exposure> {
    return { pairs: await readExposure(this.deps.db, this.deps.riskMaxPairLossUsd, (c) => this.deps.fx.perUsd(c)) };
  }

  async risk(): Promise<RiskLimits> {
    const limits = await listPairLimits(this.deps.db);
    return {
      default_usd_minor: this.deps.riskMaxPairLossUsd * 100,
      pairs: limits.map((l) => ({ pair: l.pair_code, limit_usd_minor: Number(l.max_loss_usd_minor), updated_at_ms: Number(l.updated_at) })),
    };
  }

  private async knownPair(pair: string): Promise<void> {
    if ((await pairActive(this.deps.db, pair)) === null) throw notFound(ConsoleText.pairNotFound);
  }

  /** Lowering (or keeping) a pair's limit applies at once; raising it is a four-eyes request. */
  async setRiskLimit(pair: string, limitUsd: string, reason: string, actor: OperatorActor): Promise<MaybeApproval> {
    await this.knownPair(pair);
    const cents = toMinor(limitUsd, 2);
    if (cents === null) throw invalid('The limit is an amount in USD with at most 2 decimals');
    const current = await pairLimitUsdMinor(this.deps.db, pair, this.deps.riskMaxPairLossUsd);
    const now = this.deps.now();
    if (cents > current) {
      const id = await this.deps.tx((trx) =>
        this.deps.approvals.requestIn(trx, { kind: 'risk_limit_raise', payload: { pair, limit_usd_minor: cents, from_usd_minor: current }, targetType: 'pair', targetId: pair, reason }, actor, now),
      );
      return { done: false, approval: await this.deps.approvals.get(id) };
    }
    await this.deps.tx(async (trx) => {
      await setPairLimit(trx, pair, cents, now);
      await appendAudit(trx, actor, { action: 'risk.limit', targetType: 'pair', targetId: pair, reason, before: { limit_usd_minor: current }, after: { limit_usd_minor: cents } }, now);
    });
    return { done: true, approval: null };
  }

  async pairs(): Promise<ConsolePairs> {
    const rows = await listPairRows(this.deps.db);
    return { pairs: rows.map((r) => ({ code: r.pair_code, human_code: r.pair_human_code, category: r.category, enabled: r.is_active })) };
  }

  /** Disabling a pair applies at once (it only stops new orders); enabling one is a four-eyes request. */
  async setPairEnabled(pair: string, enable: boolean, reason: string, actor: OperatorActor): Promise<MaybeApproval> {
    const active = await pairActive(this.deps.db, pair);
    if (active === null) throw notFound(ConsoleText.pairNotFound);
    if (active === enable) throw conflict(enable ? ConsoleText.pairAlreadyEnabled : ConsoleText.pairAlreadyDisabled);
    const now = this.deps.now();
    if (enable) {
      const id = await this.deps.tx((trx) => this.deps.approvals.requestIn(trx, { kind: 'pair_enable', payload: { pair }, targetType: 'pair', targetId: pair, reason }, actor, now));
      return { done: false, approval: await this.deps.approvals.get(id) };
    }
    await setPairActive(this.deps.db, pair, false, now, (trx) =>
      appendAudit(trx, actor, { action: 'pair.disable', targetType: 'pair', targetId: pair, reason, before: { enabled: true }, after: { enabled: false } }, now).then(() => undefined),
    );
    return { done: true, approval: null };
  }

  // ---- audit -----------------------------------------------------------------------------------

  async audit(q: Pick<AuditQuery, 'action' | 'operator' | 'target_type' | 'target_id'>, page: Page): Promise<{ entries: AuditEntry[]; total: number }> {
    const { rows, total } = await listAudit(this.deps.db, { action: q.action, operator: q.operator, targetType: q.target_type, targetId: q.target_id }, page.offset, page.limit);
    return { entries: rows.map(toAudit), total };
  }

  async verify(): Promise<AuditVerify> {
    const r = await verifyAudit(this.deps.db);
    return { ok: r.ok, checked: r.checked, broken_id: r.brokenId };
  }
}

