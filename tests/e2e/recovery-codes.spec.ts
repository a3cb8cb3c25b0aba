/**
 * Issue 26, security: the profile's password change follows the registration rule (the form
 * states it and refuses "abcdef"), turning two-factor on shows ten recovery codes once (copy,
 * download as text, "I saved them"), and a recovery code logs in once in place of the app's code
 * ("Use a recovery code" on the login's second step); the same code is refused the second time,
 * and the profile then says 9 of 10 are left. Screenshots of the dialog and the login step
 * (desktop, and the phone in Russian); axe on the dialog and the login step.
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import * as OTPAuth from 'otpauth';
import { PASSWORD, logIn, logOut, registerThroughForm, screenshot, uniqueUser } from './support/app';

function totp(secret: string, timestamp = Date.now()): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp });
}

async function expectNoAxeViolations(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('recovery codes: shown once at enrolment, one logs in once; the password change keeps the registration rule', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const user = await registerThroughForm(page, uniqueUser('rcv'));
  await page.goto('/profile#security');
  const security = page.locator('#security');

  // ---- the password change states and applies the registration rule ----
  await expect(security.getByText('At least 8 characters with a lowercase and an uppercase letter, a number and a special character, no spaces')).toBeVisible();
  await security.getByLabel('Current password').fill(PASSWORD);
  await security.getByRole('textbox', { name: 'New password', exact: true }).fill('abcdef');
  await security.getByLabel('Confirm new password').fill('abcdef');
  await expect(security.getByText('Password must be at least 8 characters')).toBeVisible();
  await security.getByRole('button', { name: 'Change password' }).click();
  await expect(security.getByText('Password changed. Other devices have been signed out.')).toHaveCount(0);

  // ---- two-factor on: the recovery codes dialog ----
  await security.getByRole('button', { name: 'Enable 2FA' }).click();
  const secret = ((await security.getByTestId('two-factor-secret').textContent()) ?? '').replace(/\s+/g, '');
  await security.getByLabel('6-digit code').fill(totp(secret));
  await security.getByRole('button', { name: 'Verify and enable' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
  const items = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  const codes = (await items.allTextContents()).map((c) => c.trim());
  for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  expect(new Set(codes).size).toBe(10);
  // Escape does not close it: only "I saved them" does, after the box is ticked.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Download as text' }).click()]);
  expect(download.suggestedFilename()).toBe('tradeterminal-recovery-codes.txt');
  const file = await download.path().then((p) => import('node:fs').then((fs) => fs.readFileSync(p, 'utf8')));
  for (const c of codes) expect(file).toContain(c);
  await expect(dialog.getByRole('button', { name: 'I saved them' })).toBeDisabled();
  await page.screenshot({ path: 'tests/e2e/screenshots/recovery-codes-dialog.png' });
  await expectNoAxeViolations(page, '[role="dialog"]');
  await dialog.getByLabel('I have saved these codes somewhere safe').check();
  await dialog.getByRole('button', { name: 'I saved them' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(security.getByText('Unused codes left: 10 of 10')).toBeVisible();
  await security.screenshot({ path: 'tests/e2e/screenshots/recovery-codes-security-section.png' });

  // ---- log in with a recovery code (typed in capitals, the dash kept) ----
  await logOut(page);
  await logIn(page, user.username, PASSWORD);
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await expect(page.getByLabel('Recovery code')).toBeVisible();
  await screenshot(page, 'recovery-codes-login-step');
  await expectNoAxeViolations(page, 'main');
  await page.getByLabel('Recovery code').fill(codes[0].toUpperCase());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/trading/);

  // ---- the same code never works again ----
  await logOut(page);
  await logIn(page, user.username, PASSWORD);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Invalid recovery code')).toBeVisible();
  await page.getByLabel('Recovery code').fill(codes[1]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/trading/);
  await page.goto('/profile#security');
  await expect(page.locator('#security').getByText('Unused codes left: 8 of 10')).toBeVisible();

  // ---- the phone, in Russian: the recovery step ----
  await logOut(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => localStorage.setItem('language', JSON.stringify('ru')));
  await page.goto('/auth');
  await page.getByRole('textbox', { name: 'Имя пользователя или email', exact: true }).fill(user.username);
  await page.getByRole('textbox', { name: 'Пароль', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Войти' }).last().click();
  await page.getByRole('button', { name: 'Использовать резервный код' }).click();
  await expect(page.getByLabel('Резервный код')).toBeVisible();
  await screenshot(page, 'recovery-codes-login-step-phone-ru');
});
