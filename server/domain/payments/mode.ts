/**
 * Payments mode (PAYMENTS_MODE, docs/money.md "Payments"):
 *
 *   sandbox   the default. The crypto-address methods run on the simulated chain and the
 *             payment link on the embedded sandbox checkout: no real money moves. Every
 *             sandbox method, deposit answer and transaction row carries `sandbox: true`, and
 *             the SPA labels them "Sandbox". With NODE_ENV=production the server refuses to
 *             start in sandbox unless ALLOW_SANDBOX_PAYMENTS=1.
 *   live      the same integration types are served by OxaPay (white-label address, invoice,
 *             payouts). The sandbox methods are not offered; the OxaPay keys are required.
 *
 * Sandbox and live methods are separate catalogue rows (methods.ts): which row a transaction
 * was made through says forever whether it was a sandbox one, whatever the mode is later.
 */
import type { Config } from '../../config';

export type PaymentsMode = 'sandbox' | 'live';

/** The catalogue rows served by the simulated providers (seeded in methods.ts). */
export const SANDBOX_METHOD_IDS: ReadonlySet<string> = new Set(['usdt_trc20', 'btc', 'oxapay_crypto']);
/** The catalogue rows served by OxaPay in live mode (seeded in methods.ts). */
export const LIVE_METHOD_IDS: ReadonlySet<string> = new Set(['oxapay_usdt_trc20', 'oxapay_btc', 'oxapay_invoice']);

export function isSandboxMethod(methodId: string): boolean {
  return SANDBOX_METHOD_IDS.has(methodId);
}

/** Whether a method is offered (listed, accepted for new payments) in this mode. */
export function methodOffered(methodId: string, mode: PaymentsMode): boolean {
  return mode === 'live' ? !SANDBOX_METHOD_IDS.has(methodId) : !LIVE_METHOD_IDS.has(methodId);
}

/**
 * Why the server must not start with this payments configuration, or null. Printed by
 * server/main.ts before anything listens (exit code 1).
 */
export function paymentsStartProblem(config: Pick<Config, 'env' | 'paymentsMode' | 'allowSandboxPayments' | 'oxapayMerchantApiKey' | 'oxapayPayoutApiKey' | 'publicUrl'>): string | null {
  if (config.paymentsMode === 'sandbox') {
    if (config.env === 'production' && !config.allowSandboxPayments) {
      return [
        'Refusing to start: PAYMENTS_MODE is sandbox while NODE_ENV=production.',
        'In sandbox mode deposits are simulated and credit real balances without any payment.',
        'Set PAYMENTS_MODE=live with OXAPAY_MERCHANT_API_KEY, OXAPAY_PAYOUT_API_KEY and PUBLIC_URL,',
        'or set ALLOW_SANDBOX_PAYMENTS=1 to run a labelled sandbox on purpose.',
      ].join('\n');
    }
    return null;
  }
  const missing = [
    !config.oxapayMerchantApiKey && 'OXAPAY_MERCHANT_API_KEY',
    !config.oxapayPayoutApiKey && 'OXAPAY_PAYOUT_API_KEY',
    config.env === 'production' && !config.publicUrl && 'PUBLIC_URL',
  ].filter(Boolean);
  if (missing.length > 0) {
    return `Refusing to start: PAYMENTS_MODE=live needs ${missing.join(', ')} (OxaPay keys, and the address OxaPay sends callbacks to).`;
  }
  return null;
}

/** The start banner's payments line. */
export function paymentsBannerLine(mode: PaymentsMode, apiUrl: string): string {
  return mode === 'sandbox'
    ? '  Payments: SANDBOX - simulated deposits and withdrawals, no real money moves (PAYMENTS_MODE=live for OxaPay)'
    : `  Payments: LIVE - OxaPay at ${apiUrl}, real money moves`;
}

/** The PaymentsService options that follow from the configuration (composition.ts). */
export function paymentsModeOptions(
  config: Pick<Config, 'paymentsMode' | 'oxapayApiUrl' | 'oxapayMerchantApiKey' | 'oxapayPayoutApiKey' | 'oxapayTimeoutMs'>,
): { mode: PaymentsMode; oxapay?: { apiUrl: string; merchantApiKey: string; payoutApiKey: string; timeoutMs: number } } {
  if (config.paymentsMode === 'sandbox') return { mode: 'sandbox' };
  return {
    mode: 'live',
    oxapay: { apiUrl: config.oxapayApiUrl, merchantApiKey: config.oxapayMerchantApiKey ?? '', payoutApiKey: config.oxapayPayoutApiKey ?? '', timeoutMs: config.oxapayTimeoutMs },
  };
}
