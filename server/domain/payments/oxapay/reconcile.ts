/**
 * Reconciliation (live mode): a webhook that never arrives must not lose money. Every
 * RECONCILE_INTERVAL the server asks OxaPay about
 *
 *   - each OxaPay deposit still pending or processing, and each one expired less than a day ago
 *     (a payment may confirm after our window closed): GET /v1/payment/{track_id}, and the
 *     answer goes through the same paymentUpdate + applyCallback as a webhook;
 *   - each OxaPay payout still pending or processing: GET /v1/payout/{track_id} -> applyPayout.
 *
 * Only rows last changed at least `minAgeMs` ago are asked about (the webhook normally comes
 * first). Everything it applies is status-guarded and ledger-keyed like the webhooks, so a
 * webhook and a reconciliation racing each other credit or pay out once. One row's failure
 * (OxaPay down, an answer that does not match the row) is logged and the others go on.
 */
import type { PaymentsDeps } from '../deps';
import { applyCallback, type ProviderRegistry } from '../deposits';
import { LIVE_METHOD_IDS } from '../mode';
import { depositsToReconcile, payoutsToReconcile } from '../repository';
import type { OxapayClient } from './client';
import { applyPayout } from './payouts';
import { paymentUpdate } from './providers';

export const RECONCILE_INTERVAL_MS = 60_000;
/** How long after its last change a row is first asked about. */
export const RECONCILE_MIN_AGE_MS = 30_000;
/** Expired deposits are still asked about for this long after their window. */
const LATE_WINDOW_MS = 24 * 3600_000;

export interface ReconcileReport {
  deposits: number;
  payouts: number;
  changed: number;
  failed: number;
}

export async function reconcileOxapay(
  deps: PaymentsDeps,
  client: OxapayClient,
  providers: ProviderRegistry,
  minAgeMs = RECONCILE_MIN_AGE_MS,
  limit = 200,
): Promise<ReconcileReport> {
  const now = deps.now();
  const report: ReconcileReport = { deposits: 0, payouts: 0, changed: 0, failed: 0 };
  const liveIds = [...LIVE_METHOD_IDS];

  const deposits = await depositsToReconcile(deps.db, { methodIds: liveIds, now, minAgeMs, lateWindowMs: LATE_WINDOW_MS, limit });
  for (const row of deposits) {
    report.deposits++;
    const provider = providers.get(row.integration_type);
    if (!provider) continue;
    try {
      const info = await client.paymentInfo(row.invoice_id!);
      const result = await applyCallback(deps, provider, paymentUpdate(info));
      if (result.changed) report.changed++;
    } catch (err) {
      report.failed++;
      deps.log?.warn({ err: (err as Error).message, transaction_id: row.id }, 'oxapay reconciliation: deposit not checked');
    }
  }

  const payouts = await payoutsToReconcile(deps.db, { methodIds: liveIds, now, minAgeMs, limit });
  for (const row of payouts) {
    report.payouts++;
    try {
      const result = await applyPayout(deps, await client.payoutInfo(row.invoice_id!));
      if (result.changed) report.changed++;
    } catch (err) {
      report.failed++;
      deps.log?.warn({ err: (err as Error).message, transaction_id: row.id }, 'oxapay reconciliation: payout not checked');
    }
  }
  return report;
}
