/**
 * Live payments end to end in Chromium (PAYMENTS_MODE=live): this file starts its own OxaPay
 * emulator (tests/support/oxapay-emulator.ts) and its own server process in live mode against
 * it (the suite's shared webServer stays the sandbox one). A fresh user deposits through the
 * OxaPay invoice (paid on the emulator's hosted invoice page in another tab), then through the
 * white-label address (paid with the emulator's hook), withdraws to a crypto address (sent as an
 * OxaPay payout, confirmed by the signed payout webhook), and sees the history: nothing is
 * marked Sandbox in live mode. The operator's ledger audit runs on this server's database after.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { freePort } from '../support/free-port';
import { startOxapayEmulator, type OxapayEmulator } from '../support/oxapay-emulator';
import { registerThroughForm, screenshot, uniqueUser } from './support/app';

// Set once the server listens (beforeAll); the tests' baseURL reads it then.
let baseURL = '';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-e2e-live-'));
let emu: OxapayEmulator;
let server: ChildProcess | null = null;

// eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
test.use({ baseURL: async ({}, use) => use(baseURL) });
test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  emu = await startOxapayEmulator();
  // Two tries, as the other harnesses do (tests/support/free-port.ts): the free port may be taken
  // between freePort() and the server's bind (a random port in the ephemeral range once was).
  let output = '';
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    output = '';
    server = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        RATE_LIMIT: 'false',
        SEED_DEMO_USER: 'false',
        PAYMENTS_MODE: 'live',
        OXAPAY_API_URL: emu.url,
        OXAPAY_MERCHANT_API_KEY: emu.merchantKey,
        OXAPAY_PAYOUT_API_KEY: emu.payoutKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    server.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const end = Date.now() + 60_000;
    let ok = false;
    while (!ok && Date.now() <= end && server.exitCode === null) {
      ok = await fetch(`${baseURL}/api/health`).then((r) => r.ok).catch(() => false);
      if (!ok) await new Promise((r) => setTimeout(r, 250));
    }
    if (ok) break;
    if (attempt === 0 && output.includes('EADDRINUSE')) continue;
    throw new Error(`live server did not start:\n${output}`);
  }
  expect(output).toMatch(/Payments: LIVE - OxaPay at/);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await emu?.close();
  // The operator's ledger audit on this server's database.
  const run = spawnSync(path.resolve('node_modules/.bin/tsx'), ['server/cli/admin.ts', 'audit'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(run.stdout, run.stderr).toMatch(/^Ledger OK: \d+ balances match their entries/m);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function headerAmount(page: Page) {
  return ((await page.locator('.header-balance .balance-box .balance-box-amount').textContent()) ?? '').trim();
}

async function chooseMethod(dialog: ReturnType<Page['getByRole']>, name: string) {
  await dialog.getByRole('button', { name: new RegExp(name.replace(/[()/]/g, '.')) }).click();
}

test('deposit through the OxaPay invoice and the white-label address, withdraw as a payout', async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await registerThroughForm(page, uniqueUser('live'));
  await page.getByRole('button', { name: 'Balance and accounts' }).click();
  await page.getByRole('radio', { name: /Real account/ }).check();
  await page.keyboard.press('Escape');
  await expect.poll(() => headerAmount(page)).toBe('$0.00');

  // ---- invoice link, paid on OxaPay's (emulated) hosted page -----------------------------------
  await page.locator('.header-deposit').click();
  const deposit = page.getByRole('dialog', { name: 'Deposit' });
  await expect(deposit.getByRole('button', { name: /USDT \(TRC20\)/ })).toBeVisible();
  await expect(deposit.getByText('Sandbox')).toHaveCount(0);
  await screenshot(page, 'oxapay-deposit-methods');
  await chooseMethod(deposit, 'Crypto payment link');
  await deposit.getByRole('textbox', { name: /^Amount/ }).fill('25');
  await deposit.getByRole('button', { name: 'Continue' }).click();
  const open = deposit.getByRole('link', { name: /Open payment page/ });
  await expect(open).toBeVisible();
  await expect(deposit.getByText('Sandbox')).toHaveCount(0);
  const paymentUrl = await open.getAttribute('href');
  expect(paymentUrl).toMatch(new RegExp(`^${emu.url}/pay/\\d+$`));
  const invoice = await context.newPage();
  await invoice.goto(paymentUrl!);
  await invoice.getByRole('button', { name: 'Pay 25 USD' }).click();
  await expect(invoice.locator('body')).toContainText('Payment received');
  await invoice.close();
  await page.bringToFront();
  await expect(deposit.getByText('Deposit completed')).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => headerAmount(page), { timeout: 15_000 }).toBe('$25.00');

  // ---- white-label address: OxaPay's address and our QR code; the payer pays -----------------
  await deposit.getByRole('button', { name: 'New deposit' }).click();
  await chooseMethod(deposit, 'USDT (TRC20)');
  await deposit.getByRole('textbox', { name: /^Amount/ }).fill('30');
  await deposit.getByRole('button', { name: 'Continue' }).click();
  await expect(deposit.getByRole('img', { name: 'QR code of the USDT payment' })).toBeVisible();
  const payment = [...emu.payments.values()].find((p) => p.type === 'white-label');
  expect(payment?.address).toBeTruthy();
  await expect(deposit.getByText(payment!.address!)).toBeVisible();
  await screenshot(page, 'oxapay-deposit-address');
  await emu.pay(payment!.track_id);
  await expect(deposit.getByText('Deposit completed')).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => headerAmount(page), { timeout: 15_000 }).toBe('$55.00');

  // ---- withdraw to a crypto address: an OxaPay payout -------------------------------------------
  await deposit.getByRole('button', { name: 'Withdraw' }).click();
  const withdraw = page.getByRole('dialog', { name: 'Withdraw' });
  await chooseMethod(withdraw, 'USDT (TRC20)');
  await withdraw.getByRole('textbox', { name: /^Amount/ }).fill('20');
  await withdraw.getByRole('textbox', { name: /^Wallet address/ }).fill('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
  await withdraw.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect(withdraw.getByText('Withdrawal requested')).toBeVisible();
  await expect.poll(() => headerAmount(page), { timeout: 15_000 }).toBe('$35.00');
  const payout = [...emu.payouts.values()][0];
  expect(payout).toMatchObject({ address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', currency: 'USDT', amount: 20, network: 'TRC20' });
  expect(await emu.confirmPayout(payout.track_id)).toMatchObject({ status: 200, answer: 'ok' });

  // ---- the history: every row completed, none marked Sandbox -------------------------------------
  await withdraw.getByRole('button', { name: 'Transaction history' }).click();
  await expect(page).toHaveURL(/\/profile#transactions$/);
  const table = page.getByRole('table', { name: 'Transaction history' });
  await expect(table.getByRole('row')).toHaveCount(4);
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toContainText('-$20.00');
  await expect(rows.nth(1)).toContainText('Completed', { timeout: 15_000 });
  await expect(rows.nth(2)).toContainText('+$30.00');
  await expect(rows.nth(3)).toContainText('+$25.00');
  await expect(table.getByText('Sandbox')).toHaveCount(0);
  await screenshot(page, 'oxapay-history');
});
