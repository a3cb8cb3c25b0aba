/**
 * The support center (issue 27 item 6) in Chromium against the real server: a trader opens a
 * ticket on /help whose subject carries a script; an operator (an admin created with the CLI,
 * who passes the support role) finds it in the console's support inbox, where the subject shows
 * as text, and answers; the answer appears in the trader's open thread without a reload (the
 * `support_update` socket event). window.__xss stays undefined on both sides.
 */
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { totpCoder } from '../support/operators';
import { registerThroughForm } from './support/app';

const XSS = '<img src=x onerror=window.__xss=1>';

function cliAdmin() {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (see playwright.config.ts)');
  const username = `desk${Date.now() % 1_000_000}`;
  const password = 'Desk#Support2026';
  const out = execFileSync('npx', ['tsx', 'server/cli/admin.ts', 'operators', 'add', username, 'admin', '--password', password], {
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  const secret = /TOTP secret[^:]*:\s*([A-Z2-7]+)/.exec(out)?.[1];
  if (!secret) throw new Error(`no TOTP secret in the CLI's output:\n${out}`);
  return { username, password, code: totpCoder(secret) };
}

test('a trader opens a ticket and sees the support answer live; script stays text on both sides', async ({ browser }) => {
  test.setTimeout(120_000);
  const traderContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const trader = await traderContext.newPage();
  await registerThroughForm(trader);
  await trader.goto('/help');
  await expect(trader.getByRole('heading', { name: 'Help and support' })).toBeVisible();
  await trader.getByRole('button', { name: 'New ticket' }).click();
  const form = trader.getByRole('form', { name: 'New ticket' });
  await form.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Withdrawal' });
  const subject = `Where is my withdrawal ${Date.now()} ${XSS}`;
  await form.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await form.getByRole('textbox', { name: 'Message' }).fill(`Please check it. ${XSS}`);
  await form.getByRole('button', { name: 'Send ticket' }).click();
  await expect(trader.getByText('Please check it.', { exact: false }).first()).toBeVisible();

  const admin = cliAdmin();
  const opContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const op = await opContext.newPage();
  await op.goto('/admin');
  await op.getByRole('textbox', { name: 'Username or email' }).fill(admin.username);
  await op.getByRole('textbox', { name: 'Password', exact: true }).fill(admin.password);
  await op.getByRole('button', { name: 'Next' }).click();
  await op.getByRole('textbox', { name: 'Code' }).fill(admin.code());
  await op.getByRole('button', { name: 'Sign in' }).click();
  await expect(op.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await op.getByRole('link', { name: 'Support' }).first().click();
  const open = op.getByRole('button', { name: new RegExp(`^Open ticket #\\d+: ${subject.slice(0, 30)}`) });
  await expect(open).toBeVisible();
  await open.click();
  // The subject and message are text, not markup.
  await expect(op.getByText(XSS, { exact: false }).first()).toBeVisible();
  const answer = `We found it: it is paid ${Date.now()}`;
  await op.getByRole('textbox', { name: 'Message' }).fill(answer);
  await op.getByRole('button', { name: 'Send reply' }).click();

  // Live on the trader's open thread, no reload.
  await expect(trader.getByText(answer)).toBeVisible({ timeout: 15_000 });
  expect(await trader.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await op.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await traderContext.close();
  await opContext.close();
});
