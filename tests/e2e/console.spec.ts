/**
 * The operator console (issue 27) in Chromium against the real server:
 * - an admin created with the CLI (`npm run admin -- operators add`) signs in at /admin with the
 *   password and a TOTP code, and adds a finance, a second finance and a support operator in the
 *   console (each one's initial password and TOTP secret shown once);
 * - a trader deposits by card; a finance operator approves the deposit in the console; the trader
 *   asks for a large withdrawal (above the four-eyes threshold); the finance operator approves it
 *   and it waits ("awaiting second approval"); the same operator is refused the second approval;
 *   a support operator sees neither payments nor approvals and the server refuses their approval
 *   (403); the second finance operator approves and the withdrawal is paid;
 * - the audit log verifies;
 * - security: a nickname `<img src=x onerror=...>` and a document file name with a script show
 *   as text in the console (window.__xss stays undefined);
 * - every console screen at 1440x900 goes to tests/e2e/screenshots/ and axe finds nothing.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { totpCoder } from '../support/operators';
import { registerThroughForm, screenshot, uniqueUser } from './support/app';

interface Operator {
  username: string;
  password: string;
  code: () => string;
}

function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (see playwright.config.ts)');
  return dir;
}

/** `npm run admin -- operators add <name> admin --password ...` on the e2e database. */
function cliAdmin(): Operator {
  const username = `admin${Date.now() % 1_000_000}`;
  const password = 'Admin#Console2026';
  const out = execFileSync('npx', ['tsx', 'server/cli/admin.ts', 'operators', 'add', username, 'admin', '--password', password], {
    env: { ...process.env, DATA_DIR: dataDir(), NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  const secret = /TOTP secret[^:]*:\s*([A-Z2-7]+)/.exec(out)?.[1];
  if (!secret) throw new Error(`no TOTP secret in the CLI's output:\n${out}`);
  return { username, password, code: totpCoder(secret) };
}

function db() {
  const handle = new Database(path.join(dataDir(), 'tradeterminal.db'), { fileMustExist: true });
  handle.pragma('busy_timeout = 5000');
  return handle;
}

async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function logIn(page: Page, op: Operator) {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Operator console' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Username or email' }).fill(op.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(op.password);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Code' }).fill(op.code());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

async function consolePage(browser: Browser, op: Operator): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(() => {
    (window as unknown as { __xss?: number }).__xss = undefined;
  });
  const page = await context.newPage();
  await logIn(page, op);
  return page;
}

async function nav(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name }).click();
}

/** Adds an operator in the console; answers its password and TOTP (shown once). */
async function addOperator(page: Page, username: string, role: string): Promise<Operator> {
  await page.getByRole('button', { name: 'Add operator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add operator' });
  await dialog.getByRole('textbox', { name: 'Username' }).fill(username);
  await dialog.getByRole('combobox', { name: 'Role' }).selectOption(role);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText(`Operator ${username} created`)).toBeVisible();
  await expect(dialog.getByRole('img', { name: /QR code/ })).toBeVisible();
  const password = await dialog.getByRole('textbox', { name: 'Initial password' }).inputValue();
  const secret = await dialog.getByRole('textbox', { name: 'Authenticator secret' }).inputValue();
  if (role === 'support') await screenshot(page, 'console-operator-created');
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toHaveCount(0);
  return { username, password, code: totpCoder(secret) };
}

test('the console: operators, four-eyes withdrawal, roles, audit chain, safe text', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now() % 1_000_000;

  // ---- the admin (CLI) signs in with TOTP and adds operators ---------------------------------
  const admin = cliAdmin();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Operator console' })).toBeVisible();
  await screenshot(page, 'console-login');
  await expectNoAxeViolations(page);
  await page.getByRole('textbox', { name: 'Username or email' }).fill(admin.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Code' }).fill(admin.code());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Wrong username, password or code')).toBeVisible();
  await logIn(page, admin);
  await screenshot(page, 'console-dashboard');
  await expectNoAxeViolations(page);

  await nav(page, 'Operators');
  await expect(page.getByRole('heading', { name: 'Operators', level: 1 })).toBeVisible();
  const finance1 = await addOperator(page, `fin${stamp}a`, 'finance');
  const finance2 = await addOperator(page, `fin${stamp}b`, 'finance');
  const support = await addOperator(page, `sup${stamp}`, 'support');
  await expect(page.getByRole('cell', { name: support.username, exact: true })).toBeVisible();
  await screenshot(page, 'console-operators');
  await expectNoAxeViolations(page);

  // ---- a trader deposits by card, to be approved by finance ------------------------------------
  const traderContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const trader = await traderContext.newPage();
  const user = await registerThroughForm(trader, uniqueUser('cons'), 'USD');
  await trader.locator('.header-deposit').click();
  const deposit = trader.getByRole('dialog', { name: 'Deposit' });
  await deposit.getByRole('button', { name: /Visa \/ Mastercard/ }).click();
  await deposit.getByRole('textbox', { name: /^Amount/ }).fill('2000');
  await deposit.getByRole('button', { name: 'Continue' }).click();
  await deposit.getByRole('button', { name: 'I have paid' }).click();
  await expect(deposit.getByText('Confirmation received')).toBeVisible();
  await trader.keyboard.press('Escape');

  const fin1 = await consolePage(browser, finance1);
  await nav(fin1, 'Deposits and withdrawals');
  await fin1.getByRole('combobox', { name: 'Type' }).selectOption('deposit');
  const depositRow = fin1.getByRole('row').filter({ hasText: '$2,000.00' }).first();
  await depositRow.getByRole('button', { name: /^Approve Deposit/ }).click();
  const approveDeposit = fin1.getByRole('dialog', { name: 'Approve payment' });
  await approveDeposit.getByRole('button', { name: 'Confirm' }).click();
  await expect(approveDeposit.getByText('Done.')).toBeVisible();
  await approveDeposit.getByRole('button', { name: 'Close' }).first().click();

  // ---- the trader asks for a large withdrawal (four eyes) ---------------------------------------
  await trader.locator('.header-deposit').click();
  await deposit.getByRole('button', { name: 'Withdraw' }).click();
  const withdraw = trader.getByRole('dialog', { name: 'Withdraw' });
  await withdraw.getByRole('button', { name: /Visa \/ Mastercard/ }).click();
  await withdraw.getByRole('textbox', { name: /^Amount/ }).fill('1500');
  await withdraw.getByRole('textbox', { name: /^Card number/ }).fill('4111 1111 1111 1111');
  await withdraw.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect(withdraw.getByText('Withdrawal requested')).toBeVisible();

  // First finance approval: recorded, waits for a second operator.
  await fin1.getByRole('combobox', { name: 'Type' }).selectOption('withdrawal');
  const withdrawalRow = fin1.getByRole('row').filter({ hasText: '$1,500.00' }).first();
  await expect(withdrawalRow.getByText('Needs a second approval')).toBeVisible();
  await screenshot(fin1, 'console-payments');
  await expectNoAxeViolations(fin1);
  await withdrawalRow.getByRole('button', { name: /^Approve Withdrawal/ }).click();
  const approve = fin1.getByRole('dialog', { name: 'Approve payment' });
  await expect(approve.getByText(/second operator/)).toBeVisible();
  await screenshot(fin1, 'console-approve-dialog');
  await expectNoAxeViolations(fin1);
  await approve.getByRole('textbox', { name: 'Reason (optional)' }).fill('Checked the account history');
  await approve.getByRole('button', { name: 'Confirm' }).click();
  await expect(approve.getByText(/Awaiting second approval/)).toBeVisible();
  await approve.getByRole('button', { name: 'Close' }).first().click();

  // The same operator cannot give the second approval.
  await nav(fin1, 'Approvals');
  const request = fin1.getByRole('row').filter({ hasText: 'Large withdrawal' }).filter({ hasText: finance1.username }).first();
  await expect(request.getByText('You requested this: another operator must approve')).toBeVisible();
  await screenshot(fin1, 'console-approvals');
  await expectNoAxeViolations(fin1);
  const requestId = (await request.getByRole('cell').first().innerText()).trim();
  await request.getByRole('button', { name: `Approve #${requestId}` }).click();
  const second = fin1.getByRole('dialog', { name: 'Approve request' });
  await second.getByRole('button', { name: 'Confirm' }).click();
  await expect(second.getByText('The operator who asked cannot approve the request')).toBeVisible();
  await second.getByRole('button', { name: 'Cancel' }).click();

  // Support: no payments or approvals in the menu, and the server refuses the approval.
  const sup = await consolePage(browser, support);
  const supportNav = sup.getByRole('navigation', { name: 'Console sections' });
  await expect(supportNav.getByRole('link', { name: 'Users' })).toBeVisible();
  await expect(supportNav.getByRole('link', { name: 'Approvals' })).toHaveCount(0);
  await expect(supportNav.getByRole('link', { name: 'Deposits and withdrawals' })).toHaveCount(0);
  const refused = await sup.evaluate(async (id) => {
    const res = await fetch(`/api/console/approvals/${id}/approve`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-console': '1' }, body: '{}' });
    return res.status;
  }, requestId);
  expect(refused).toBe(403);

  // The second finance operator approves: the withdrawal is paid.
  const fin2 = await consolePage(browser, finance2);
  await nav(fin2, 'Approvals');
  const pending = fin2.getByRole('row').filter({ hasText: 'Large withdrawal' }).filter({ hasText: finance1.username }).first();
  await pending.getByRole('button', { name: `Approve #${requestId}` }).click();
  const final = fin2.getByRole('dialog', { name: 'Approve request' });
  await final.getByRole('button', { name: 'Confirm' }).click();
  await expect(final.getByText('Done.')).toBeVisible();
  await final.getByRole('button', { name: 'Close' }).first().click();
  await fin2.getByRole('combobox', { name: 'Status' }).selectOption('executed');
  await expect(fin2.getByRole('row').filter({ hasText: finance2.username }).first()).toBeVisible();
  await nav(fin2, 'Deposits and withdrawals');
  await fin2.getByRole('combobox', { name: 'Type' }).selectOption('withdrawal');
  const paid = fin2.getByRole('row').filter({ hasText: '$1,500.00' }).first();
  await expect(paid.getByText('Approved')).toBeVisible();

  // ---- books and the other screens (admin) ------------------------------------------------------
  for (const [name, shot] of [
    ['Books, P&L, exposure', 'console-books'],
    ['Risk limits and pairs', 'console-risk'],
    ['KYC queue', 'console-kyc'],
  ] as const) {
    await nav(page, name);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForTimeout(400);
    await screenshot(page, shot);
    await expectNoAxeViolations(page);
  }

  // ---- script in a nickname and a file name renders as text ----------------------------------------
  const evil = '<img src=x onerror=window.__xss=1>';
  const evilFile = '<script>window.__xss=2</script>.png';
  const handle = db();
  try {
    const { id: userId } = handle.prepare('select id from users where lower(email) = lower(?)').get(user.email) as { id: number };
    const now = Date.now();
    const updated = handle.prepare('update user_profiles set nickname = ? where user_id = ?').run(evil, userId);
    if (updated.changes === 0) handle.prepare('insert into user_profiles (user_id, nickname, updated_at) values (?, ?, ?)').run(userId, evil, now);
    const doc = handle.prepare(`insert into documents (user_id, type, status, created_at, updated_at) values (?, 'passport', 'pending', ?, ?)`).run(userId, now, now);
    handle
      .prepare(`insert into document_files (document_id, user_id, original_name, storage_name, size, mime, sha256, created_at) values (?, ?, ?, 'missing.png', 10, 'image/png', 'x', ?)`)
      .run(doc.lastInsertRowid, userId, evilFile, now);
  } finally {
    handle.close();
  }
  await nav(page, 'Users');
  await page.getByRole('searchbox', { name: /Search by id/ }).fill(user.email);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('cell', { name: evil })).toBeVisible();
  await screenshot(page, 'console-users');
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: `Open user ${user.username}` }).click();
  await expect(page.getByText(evil).first()).toBeVisible();
  await expect(page.getByRole('link', { name: `Download ${evilFile}` })).toBeVisible();
  await screenshot(page, 'console-user');
  await expectNoAxeViolations(page);
  await nav(page, 'KYC queue');
  await expect(page.getByRole('link', { name: `Download ${evilFile}` })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator('img[src="x"]').count()).toBe(0);

  // ---- the audit log verifies ---------------------------------------------------------------------
  await nav(page, 'Audit log');
  await expect(page.getByRole('cell', { name: 'payment.approve' }).or(page.getByText(/approv/).first()).first()).toBeVisible();
  await page.getByRole('button', { name: 'Verify chain' }).click();
  const verify = page.getByRole('dialog', { name: 'Verify the chain' });
  await verify.getByRole('button', { name: 'Confirm' }).click();
  await expect(verify.getByText(/The chain is intact: \d+ rows checked/)).toBeVisible();
  await screenshot(page, 'console-audit-verify');
  await verify.getByRole('button', { name: 'Close' }).first().click();
  await screenshot(page, 'console-audit');
  await expectNoAxeViolations(page);

  // Logging out goes back to the login.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Next' })).toBeVisible();
});

test('the console is a chunk of its own: /admin starts no trader app and the trader pages preload no console code', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Operator console' })).toBeVisible();
  // No trader session check, no socket.
  expect(requests.filter((p) => p.startsWith('/socket.io') || p.startsWith('/api/platform') || p.startsWith('/api/v2'))).toEqual([]);
  await page.goto('/admin/users/1');
  await expect(page.getByRole('heading', { name: 'Operator console' })).toBeVisible();

  for (const route of ['/', '/auth']) {
    const html = await (await page.request.get(route)).text();
    const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
    for (const href of preloads) {
      const code = await (await page.request.get(href)).text();
      expect(code, `${route} preloads ${href}`).not.toContain('console.login.');
      expect(code, `${route} preloads ${href}`).not.toContain('operatorSession');
    }
  }
});
