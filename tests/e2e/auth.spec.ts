/**
 * Foundation, end to end in Chromium against the real server: register in 3 steps -> log out
 * -> log in -> /trading; forgot password -> code from the outbox -> new password -> log in;
 * a wrong password shows "Invalid credentials"; theme and language switch.
 */
import { test, expect } from '@playwright/test';
import { latestMail, logIn, logOut, registerThroughForm, screenshot, uniqueUser } from './support/app';

test('register in three steps, log out, log in again', async ({ page }) => {
  await page.goto('/auth?mode=register');
  await expect(page.getByRole('textbox', { name: 'Username', exact: true })).toBeVisible();
  await screenshot(page, 'auth-register-step1');
  // Per-step validation on blur: a too-short username is reported before moving on.
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill('ab');
  await page.getByRole('textbox', { name: 'Email', exact: true }).click();
  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
  // A mismatched confirmation is flagged on blur too, while the email is still empty.
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Trade#Pass2026');
  await page.getByRole('textbox', { name: 'Confirm password', exact: true }).fill('Trade#Pass2027');
  await page.getByRole('textbox', { name: 'Username', exact: true }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();

  const user = await registerThroughForm(page, uniqueUser('reg'));
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await screenshot(page, 'trading-after-register');

  await logOut(page);
  await logIn(page, user.username, user.password);
  await expect(page).toHaveURL(/\/trading/);
});

test('a wrong password shows "Invalid credentials"', async ({ page }) => {
  const user = await registerThroughForm(page, uniqueUser('wrong'));
  await logOut(page);
  await logIn(page, user.username, 'Not-the#Password1');
  await expect(page.getByText('Invalid credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
  await screenshot(page, 'auth-invalid-credentials');
});

test('forgot password: code from the outbox, new password, log in', async ({ page }) => {
  const user = await registerThroughForm(page, uniqueUser('reset'));
  await logOut(page);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/reset-password-code/);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('textbox', { name: '6-digit code', exact: true })).toBeVisible();

  let code = '';
  await expect
    .poll(() => {
      const mail = latestMail(user.email);
      code = /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);

  const newPassword = 'Fresh#Pass2027';
  await page.getByRole('textbox', { name: '6-digit code', exact: true }).fill(code);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword);
  await page.getByRole('textbox', { name: 'Confirm password', exact: true }).fill(newPassword);
  await screenshot(page, 'auth-reset-code');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Your password has been changed')).toBeVisible();

  await logIn(page, user.email, newPassword);
  await expect(page).toHaveURL(/\/trading/);
});

test('theme and language switch with every text translated', async ({ page }) => {
  await registerThroughForm(page, uniqueUser('ui'));
  const html = page.locator('html');
  const before = await html.getAttribute('data-theme');
  await page.getByRole('button', { name: /Switch to (light|dark) theme/ }).click();
  await expect(html).not.toHaveAttribute('data-theme', before ?? 'dark');

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: /^Language/ }).last().click();
  await page.getByRole('menuitemradio', { name: 'Русский' }).click();
  await expect(html).toHaveAttribute('lang', 'ru');
  await expect(page.getByRole('link', { name: 'Торговля' }).first()).toBeVisible();
  await screenshot(page, 'trading-ru-light');
});

test('an operator link opens an admin session; the token leaves the address; logout ends it', async ({ page, baseURL }) => {
  const user = await registerThroughForm(page, uniqueUser('adm'));
  await logOut(page);
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync('node_modules/.bin/tsx', ['server/cli/admin.ts', 'session', user.username], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, PUBLIC_URL: baseURL, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  const link = out.trim().split('\n').pop()!;
  expect(link).toMatch(/\/trading\?token=/);
  const adminLogout = page.waitForRequest((r) => r.url().endsWith('/api/admin/logout'));
  await page.goto(link);
  await expect(page).toHaveURL(/\/trading$/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  // The one-time token is spent: opening the same link again does not start a session.
  await logOut(page);
  await adminLogout;
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth/);
});
