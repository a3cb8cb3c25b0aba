/**
 * The one list of every XState machine in machines/: its name (the name its path test gives
 * the coverage harness, and the machine's id), the file it lives in, the machine itself and a
 * default input it starts with.
 *
 * Everything cross-cutting reads this list: `npm run docs:machines` (docs/machines/<file>.md),
 * the coverage table of `npm run test:paths` (a registered machine without a full-coverage path
 * test fails the run), tests/machines/diagrams.test.ts and tests/mutation/. A `*.machine.ts`
 * file exporting a machine that is not listed here fails tests/machines/coverage-report.test.ts,
 * so a new machine cannot stay untested or undocumented.
 *
 * Adding a machine: import it and add one `entry(...)` line (alphabetical by name), write its
 * path test (tests/machines/<file>.test.ts, `assertFullCoverage('<name>')`), then run
 * `npm run docs:machines`.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine, InputFrom } from 'xstate';
import { appMachine } from '../machines/app/app.machine';
import { avatarMachine } from '../machines/avatar/avatar.machine';
import { balanceMachine } from '../machines/balance/balance.machine';
import { chartMachine } from '../machines/chart/chart.machine';
import { chartSetupMachine } from '../machines/chart-setup/chart-setup.machine';
import { consoleMachine } from '../machines/console/console.machine';
import { consoleActionMachine } from '../machines/console/console-action.machine';
import { consoleRecordMachine } from '../machines/console/console-record.machine';
import { consoleTableMachine } from '../machines/console/console-table.machine';
import { operatorSessionMachine } from '../machines/console/operator-session.machine';
import { consoleSupportMachine } from '../machines/console-support/console-support.machine';
import { depositMachine } from '../machines/deposit/deposit.machine';
import { documentsMachine } from '../machines/documents/documents.machine';
import { emailVerificationMachine } from '../machines/email-verification/email-verification.machine';
import { journalMachine } from '../machines/journal/journal.machine';
import { resendVerificationMachine } from '../machines/email-verification/resend-verification.machine';
import { localeMachine } from '../machines/locale/locale.machine';
import { modalsMachine } from '../machines/modals/modals.machine';
import { orderCloseMachine } from '../machines/order-close/order-close.machine';
import { orderPlacementMachine } from '../machines/order-placement/order-placement.machine';
import { ordersMachine } from '../machines/orders/orders.machine';
import { pairsMachine } from '../machines/pairs/pairs.machine';
import { passwordResetMachine } from '../machines/password-reset/password-reset.machine';
import { paymentMethodsMachine } from '../machines/payment-methods/payment-methods.machine';
import { priceAlertsMachine } from '../machines/price-alerts/price-alerts.machine';
import { profilePageMachine } from '../machines/profile/profile-page.machine';
import { profileMachine } from '../machines/profile/profile.machine';
import { receiptMachine } from '../machines/receipt/receipt.machine';
import { registrationMachine } from '../machines/registration/registration.machine';
import { securityMachine } from '../machines/security/security.machine';
import { sessionMachine } from '../machines/session/session.machine';
import { socketMachine } from '../machines/socket/socket.machine';
import { supportMachine } from '../machines/support/support.machine';
import { telegramMachine } from '../machines/telegram/telegram.machine';
import { themeMachine } from '../machines/theme/theme.machine';
import { traderPrefsMachine } from '../machines/trader-prefs/trader-prefs.machine';
import { toastsMachine } from '../machines/toasts/toasts.machine';
import { transactionsMachine } from '../machines/transactions/transactions.machine';
import { withdrawMachine } from '../machines/withdraw/withdraw.machine';

export interface RegisteredMachine<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** The coverage-table name (= the name its path test gives `assertFullCoverage`). */
  name: string;
  /** Path from the repository root, e.g. `machines/deposit/deposit.machine.ts`. */
  file: string;
  machine: TMachine;
  /** What the machine is started with when nothing more specific is needed. */
  input: InputFrom<TMachine> | undefined;
}

function entry<TMachine extends AnyStateMachine>(
  name: string,
  file: string,
  machine: TMachine,
  input?: InputFrom<TMachine>,
): RegisteredMachine<TMachine> {
  return { name, file, machine, input };
}

// The type parameter is dropped here on purpose: consumers treat every entry alike.
export const MACHINES: readonly RegisteredMachine[] = [
  entry('app', 'machines/app/app.machine.ts', appMachine, {
    persistedSession: null,
    adminToken: null,
    storedLanguage: null,
    storedTheme: null,
    systemPrefersDark: true,
  }),
  entry('avatar', 'machines/avatar/avatar.machine.ts', avatarMachine),
  entry('balance', 'machines/balance/balance.machine.ts', balanceMachine),
  entry('chart', 'machines/chart/chart.machine.ts', chartMachine),
  entry('chartSetup', 'machines/chart-setup/chart-setup.machine.ts', chartSetupMachine),
  entry('console', 'machines/console/console.machine.ts', consoleMachine, { language: 'en' }),
  entry('consoleAction', 'machines/console/console-action.machine.ts', consoleActionMachine),
  entry('consoleRecord', 'machines/console/console-record.machine.ts', consoleRecordMachine, { resource: 'dashboard', params: {}, live: true }),
  entry('consoleSupport', 'machines/console-support/console-support.machine.ts', consoleSupportMachine, {}),
  entry('consoleTable', 'machines/console/console-table.machine.ts', consoleTableMachine, { resource: 'users' }),
  entry('deposit', 'machines/deposit/deposit.machine.ts', depositMachine, { requestKey: 'registry-deposit-key', currency: 'USD' }),
  entry('documents', 'machines/documents/documents.machine.ts', documentsMachine),
  entry('emailVerification', 'machines/email-verification/email-verification.machine.ts', emailVerificationMachine, { token: 'registry-token' }),
  entry('journal', 'machines/journal/journal.machine.ts', journalMachine),
  entry('locale', 'machines/locale/locale.machine.ts', localeMachine, { stored: null }),
  entry('modals', 'machines/modals/modals.machine.ts', modalsMachine),
  entry('operatorSession', 'machines/console/operator-session.machine.ts', operatorSessionMachine),
  entry('orderClose', 'machines/order-close/order-close.machine.ts', orderCloseMachine, { orderId: 1 }),
  entry('orderPlacement', 'machines/order-placement/order-placement.machine.ts', orderPlacementMachine),
  entry('orders', 'machines/orders/orders.machine.ts', ordersMachine),
  entry('pairs', 'machines/pairs/pairs.machine.ts', pairsMachine),
  entry('passwordReset', 'machines/password-reset/password-reset.machine.ts', passwordResetMachine, {}),
  entry('paymentMethods', 'machines/payment-methods/payment-methods.machine.ts', paymentMethodsMachine),
  entry('priceAlerts', 'machines/price-alerts/price-alerts.machine.ts', priceAlertsMachine),
  entry('profile', 'machines/profile/profile.machine.ts', profileMachine),
  entry('profilePage', 'machines/profile/profile-page.machine.ts', profilePageMachine),
  entry('receipt', 'machines/receipt/receipt.machine.ts', receiptMachine, { orderId: 1 }),
  entry('registration', 'machines/registration/registration.machine.ts', registrationMachine, {}),
  entry('security', 'machines/security/security.machine.ts', securityMachine, { twoFactorEnabled: false }),
  entry('session', 'machines/session/session.machine.ts', sessionMachine, { persistedSession: null, adminToken: null }),
  entry('socket', 'machines/socket/socket.machine.ts', socketMachine),
  entry('support', 'machines/support/support.machine.ts', supportMachine),
  entry('telegram', 'machines/telegram/telegram.machine.ts', telegramMachine),
  entry('theme', 'machines/theme/theme.machine.ts', themeMachine, { stored: null, systemPrefersDark: true }),
  entry('toasts', 'machines/toasts/toasts.machine.ts', toastsMachine),
  entry('traderPrefs', 'machines/trader-prefs/trader-prefs.machine.ts', traderPrefsMachine),
  entry('transactions', 'machines/transactions/transactions.machine.ts', transactionsMachine),
  entry('verification', 'machines/email-verification/resend-verification.machine.ts', resendVerificationMachine),
  entry('withdraw', 'machines/withdraw/withdraw.machine.ts', withdrawMachine, {
    requestKey: 'registry-withdraw-key',
    currency: 'USD',
    balances: { USD: { RealBalance: 100, DemoBalance: 10000 } },
  }),
] as RegisteredMachine[];

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every `*.machine.ts` under machines/, as repository-relative paths with `/`, sorted. */
export function discoverMachineFiles(root: string = REPO_ROOT): string[] {
  const dir = join(root, 'machines');
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.machine.ts'))
    .map((file) => relative(root, join(dir, file)).split(sep).join('/'))
    .sort();
}

/** The registered machine by name (throws for an unknown one: a typo should not pass quietly). */
export function registeredMachine(name: string): RegisteredMachine {
  const found = MACHINES.find((m) => m.name === name);
  if (!found) throw new Error(`No machine named "${name}" in scripts/machines-registry.ts`);
  return found;
}

/** docs/machines/<this>.md: the machine file's name without `.machine.ts`. */
export function docSlug(entry: Pick<RegisteredMachine, 'file'>): string {
  return entry.file.split('/').pop()!.replace(/\.machine\.ts$/, '');
}
