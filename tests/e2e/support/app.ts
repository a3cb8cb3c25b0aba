/**
 * Helpers for the browser tests: unique users, registration through the real 3-step form,
 * reading the mail outbox of the e2e server's database, and screenshots into
 * tests/e2e/screenshots/ (git-ignored) for a person to look at.
 */
import path from 'node:path';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { expect, type Page } from '@playwright/test';

export const PASSWORD = 'Trade#Pass2026';

let counter = 0;
export function uniqueUser(prefix = 'e2e') {
  counter += 1;
  const id = `${prefix}${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4)}`.replace(/[^a-z0-9]/gi, '').slice(0, 30);
  return { username: id, email: `${id}@example.com`, password: PASSWORD };
}

/** Register through the 3-step form; ends on /trading. */
export async function registerThroughForm(page: Page, user = uniqueUser(), currency = 'USD') {
  await page.goto('/auth?mode=register');
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(user.username);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('textbox', { name: 'Confirm password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Ada');
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Lovelace');
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('+44 20 7946 0958');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox', { name: 'Account currency' }).selectOption(currency);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).last().click();
  await expect(page).toHaveURL(/\/trading/);
  return user;
}

export async function logIn(page: Page, identifier: string, password: string) {
  await page.goto('/auth');
  await page.getByRole('textbox', { name: 'Username or email', exact: true }).fill(identifier);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).last().click();
}

export async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).last().click();
  await expect(page).toHaveURL(/\/auth/);
}

/** The newest outbox message to an address (the e2e server writes mail there: no SMTP_URL). */
export function latestMail(recipient: string): { subject: string; body: string } | undefined {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (see playwright.config.ts)');
  const db = new Database(path.join(dir, 'tradeterminal.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(`select subject, body from outbox where channel = 'email' and lower(recipient) = lower(?) order by id desc limit 1`)
      .get(recipient) as { subject: string; body: string } | undefined;
  } finally {
    db.close();
  }
}

/**
 * The trading screen's chart is up: the pair is chosen, the screen-reader summary has a price,
 * and the chart itself is drawn (it is created when its first history arrives, after the price
 * can already be on screen, so a test that reads or clicks the chart waits for its canvas).
 */
export async function waitForChart(page: Page) {
  await expect(page.getByRole('button', { name: /Choose another pair/ })).toBeVisible();
  await expect(page.getByTestId('chart-text')).toContainText('last price');
  await expect(page.getByTestId('candle-chart').locator('canvas').first()).toBeVisible();
}

export async function screenshot(page: Page, name: string) {
  const dir = path.resolve('tests/e2e/screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}
