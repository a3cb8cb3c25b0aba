/**
 * Issue 12 item 1: a network failure while the SPA checks a stored session must not log the
 * person out. /trading is reloaded while GET /api/platform/auth/me is aborted at the network
 * level: the app stays on /trading with the stored user and says it is reconnecting; once /me
 * gets through again the note goes and the session is the same. A refused session (401 after
 * the token refresh) still ends on /auth.
 */
import { expect, test } from '@playwright/test';
import { registerThroughForm } from './support/app';

const ME = '**/api/platform/auth/me';

test('a stored session survives /me failing at the network level on reload, then reconnects', async ({ page }) => {
  const user = await registerThroughForm(page);
  const storedToken = () => page.evaluate(() => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { token?: string }).token ?? null);
  const tokenBefore = await storedToken();
  expect(tokenBefore).not.toBeNull();

  let aborted = 0;
  await page.route(ME, (route) => {
    aborted += 1;
    return route.abort('connectionreset');
  });
  await page.reload();

  const note = page.getByRole('status').filter({ hasText: "Can't reach the server. You are still signed in; reconnecting…" });
  await expect(note).toBeVisible();
  await expect(page).toHaveURL(/\/trading/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  // It keeps asking with backoff (1 s, then 2 s) while the server cannot be reached.
  await expect.poll(() => aborted, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  expect(await storedToken()).toBe(tokenBefore);

  await page.unroute(ME);
  // Retry at once; if the backoff timer got there first, the note is already gone.
  await page
    .getByRole('button', { name: 'Retry now' })
    .click({ timeout: 2_000 })
    .catch(() => undefined);
  await expect(note).toBeHidden();
  await expect(page).toHaveURL(/\/trading/);

  // Still the same session after a normal reload; the live feed connects to our own origin
  // under the CSP (connect-src 'self'), with no policy violation.
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const socketOpened = page.waitForEvent('websocket', (ws) => new URL(ws.url()).host === new URL(page.url()).host);
  await page.reload();
  await socketOpened;
  await expect(page).toHaveURL(/\/trading/);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByText(user.username).first()).toBeVisible();
  expect(violations).toEqual([]);
});

test('a stored session the server refuses (401 after the refresh) still ends on /auth', async ({ page }) => {
  await registerThroughForm(page);
  await page.route(ME, (route) =>
    route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ success: false, data: null, error: 'Unauthorized', error_message: 'Unauthorized' }) }),
  );
  await page.reload();
  await expect(page).toHaveURL(/\/auth/);
});
