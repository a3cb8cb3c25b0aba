/**
 * The prerendered /auth (issue 11, docs/performance.md "Sixth pass"): the HTML served for /auth
 * holds the login form, painted with JavaScript off; typing and pressing "Log in" before the
 * app has started logs in once it has (never a GET with the password); a stored language
 * other than English gets no English form; a stored session still goes to /trading.
 */
import { test, expect } from '@playwright/test';
import { logOut, registerThroughForm, uniqueUser } from './support/app';

test('GET /auth answers with the login form in the HTML', async ({ request }) => {
  const html = await (await request.get('/auth')).text();
  expect(html).toContain('data-prerendered="auth"');
  expect(html).toMatch(/<input[^>]*type="password"/);
  expect(html).toContain('Welcome back');
  // Another tab and the other routes are not prerendered.
  expect(await (await request.get('/auth?mode=register')).text()).not.toContain('data-prerendered');
  expect(await (await request.get('/trading')).text()).not.toContain('data-prerendered');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the login form is painted, with its accessible names', async ({ page }) => {
    await page.goto('/auth');
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Username or email', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
  });
});

test('typed and submitted before the app started: logs in once, the password never in the address', async ({ page }) => {
  const user = await registerThroughForm(page, uniqueUser('pre'));
  await logOut(page);
  let logins = 0;
  page.on('request', (r) => {
    if (r.url().includes('/auth/login')) logins += 1;
  });
  let hold = true;
  await page.route('**/assets/*.js', async (route) => {
    while (hold) await new Promise((resolve) => setTimeout(resolve, 50));
    await route.continue();
  });
  await page.goto('/auth', { waitUntil: 'commit' });
  await page.getByRole('textbox', { name: 'Username or email', exact: true }).fill(user.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForTimeout(300);
  expect(page.url()).not.toContain('password');
  expect(logins).toBe(0);
  hold = false;
  await expect(page).toHaveURL(/\/trading/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  expect(logins).toBe(1);
});

test('a stored Russian language: no English form, the Russian one', async ({ page }) => {
  await page.goto('/privacy');
  await page.evaluate(() => localStorage.setItem('language', JSON.stringify('ru')));
  await page.goto('/auth');
  expect(await page.evaluate(() => document.documentElement.getAttribute('data-prerender'))).toBe('off');
  await expect(page.getByRole('heading', { name: 'С возвращением' })).toBeVisible();
  await expect(page.getByText('Welcome back')).toHaveCount(0);
});

test('a stored session: /auth goes to /trading', async ({ page }) => {
  await registerThroughForm(page, uniqueUser('prs'));
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/trading/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});
