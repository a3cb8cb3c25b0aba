/**
 * The profile screen, end to end in Chromium against the real server: register a fresh user,
 * open /profile, save personal data (a too-young birthday refused on blur first), upload an
 * avatar (the header shows it), change the password, turn on two-factor with a code computed
 * from the secret on screen (otpauth), log out, log in with the new password and the second
 * factor, land on /trading; back on the profile upload a document (a PNG made here) and see it
 * uploaded (waiting for an operator), link Telegram (the bot's side done with the operator CLI) and switch theme and
 * language. Screenshots of every section at 1280x900 and 390x844 in both themes go to
 * tests/e2e/screenshots/ (git-ignored); axe checks the screen in both themes.
 */
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import * as OTPAuth from 'otpauth';
import { PASSWORD, logOut, registerThroughForm, screenshot, uniqueUser } from './support/app';

const SECTIONS = ['personal', 'security', 'documents', 'telegram', 'settings'] as const;

/** A small valid PNG (solid colour), built by hand so the test needs no image library. */
function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

function totp(secret: string, timestamp = Date.now()): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });
}

/** Toasts are dismissed on click; they would cover the sections in the screenshots. */
async function dismissToasts(page: Page) {
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
}

/** Waits until the section's top sits just under the sticky header (smooth scrolling has ended). */
async function expectScrolledTo(page: Page, id: string) {
  await expect
    .poll(async () => Math.round((await page.locator(`#${id}`).boundingBox())?.y ?? -1), { timeout: 5000 })
    .toBeGreaterThanOrEqual(40);
  await expect.poll(async () => Math.round((await page.locator(`#${id}`).boundingBox())?.y ?? -1), { timeout: 5000 }).toBeLessThanOrEqual(140);
}

async function sectionShots(page: Page, label: string) {
  await dismissToasts(page);
  await page.screenshot({ path: `tests/e2e/screenshots/profile-${label}-full.png`, fullPage: true });
  for (const id of SECTIONS) {
    const section = page.locator(`#${id}`);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `tests/e2e/screenshots/profile-${label}-${id}.png` });
  }
}

async function chooseTheme(page: Page, theme: 'Light' | 'Dark') {
  await page.locator('#settings').getByRole('radio', { name: theme, exact: true }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme.toLowerCase());
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include('.profile-page').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('profile: personal data, avatar, password, two-factor login, documents, Telegram, theme and language', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const user = await registerThroughForm(page, uniqueUser('prof'));

  // ---- open the profile ----
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: user.username })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Personal information' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('Ada');
  await screenshot(page, 'profile-desktop-top');

  // ---- personal data: a refusal on blur, then a save ----
  const personal = page.locator('#personal');
  await personal.getByLabel('Date of birth').fill('2015-06-01');
  await personal.getByLabel('Nickname').click();
  await expect(personal.getByText('You must be at least 18 years old')).toBeVisible();
  await personal.getByLabel('Date of birth').fill('1990-06-01');
  await personal.getByLabel('Nickname').fill(`${user.username.slice(0, 20)}_n`);
  await personal.getByLabel('Citizenship').selectOption('ES');
  await personal.getByLabel('Time zone').fill('Europe/Madrid');
  await personal.getByLabel('Gender').selectOption('female');
  await expect(personal.getByText('You have unsaved changes')).toBeVisible();
  await personal.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Personal information saved')).toBeVisible();
  await expect(personal.getByLabel('Citizenship')).toHaveValue('ES');
  await expect(personal.getByText('You have unsaved changes')).toHaveCount(0);

  // ---- avatar: preview, upload, the header shows it ----
  await page.getByLabel('Choose a profile photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(96, 96, [220, 120, 40]) });
  await expect(page.getByRole('img', { name: 'Preview of the new profile photo' })).toBeVisible();
  await page.locator('.profile-hero').screenshot({ path: 'tests/e2e/screenshots/profile-desktop-avatar-preview.png' });
  await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
  await expect(page.getByText('Profile photo updated')).toBeVisible();
  await expect(page.locator('header.app-header img.avatar')).toHaveAttribute('src', /\/uploads\/avatars\/.+\.webp$/);

  // ---- password change ----
  const security = page.locator('#security');
  const newPassword = 'Fresh#Pass2027';
  await security.getByLabel('Current password').fill(PASSWORD);
  await security.getByRole('textbox', { name: 'New password', exact: true }).fill('12345');
  await security.getByLabel('Confirm new password').click();
  await expect(security.getByText('Password must be at least 8 characters')).toBeVisible();
  await security.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword);
  await security.getByLabel('Confirm new password').fill(newPassword);
  await security.getByRole('button', { name: 'Change password' }).click();
  await expect(security.getByText('Password changed. Other devices have been signed out.')).toBeVisible();
  await expect(security.getByLabel('Current password')).toHaveValue('');

  // ---- two-factor: secret on screen -> code -> on ----
  await security.getByRole('button', { name: 'Enable 2FA' }).click();
  const secretText = (await security.getByTestId('two-factor-secret').textContent()) ?? '';
  const secret = secretText.replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(security.getByRole('img', { name: 'QR code to add this account to an authenticator app' })).toBeVisible();
  await dismissToasts(page);
  await security.screenshot({ path: 'tests/e2e/screenshots/profile-desktop-2fa-setup.png' });
  await security.getByLabel('6-digit code').fill(totp(secret));
  await security.getByRole('button', { name: 'Verify and enable' }).click();
  await expect(page.getByText('Two-factor authentication is on')).toBeVisible();
  const codesDialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
  await expect(codesDialog.getByRole('listitem')).toHaveCount(10);
  await codesDialog.getByLabel('I have saved these codes somewhere safe').check();
  await codesDialog.getByRole('button', { name: 'I saved them' }).click();
  await expect(codesDialog).toHaveCount(0);
  await expect(security.getByText('2FA on')).toBeVisible();

  // ---- log out, log in with the new password and a code ----
  await logOut(page);
  await page.getByLabel('Username or email').fill(user.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Log in' }).last().click();
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await screenshot(page, 'profile-login-2fa');
  // The code used to switch 2FA on is spent: use the next step's (the server accepts one step ahead).
  await page.getByLabel('Authentication code').fill(totp(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/trading/);

  // ---- documents: upload a PNG, see it uploaded (waiting for an operator) ----
  await page.goto('/profile#documents');
  const documents = page.locator('#documents');
  await expect(documents.getByText('No documents yet')).toBeVisible();
  await documents.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(documents.getByText('Please choose the document type')).toBeVisible();
  await documents.getByLabel('Document type').selectOption('passport');
  await documents.locator('input[type=file]').setInputFiles({ name: 'passport-scan.png', mimeType: 'image/png', buffer: png(320, 200, [240, 240, 235]) });
  await expect(documents.getByText('passport-scan.png')).toBeVisible();
  await documents.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('status').getByText('Document uploaded')).toBeVisible();
  const card = documents.getByRole('list', { name: 'Your documents' }).getByRole('listitem').first();
  await expect(card.getByText('Passport', { exact: true })).toBeVisible();
  await expect(card.locator('.profile-doc-status')).toHaveText(/Uploaded$/);

  // ---- Telegram: a code, the bot's side through the operator CLI, linked ----
  const telegram = page.locator('#telegram');
  await telegram.getByRole('button', { name: 'Connect Telegram' }).click();
  const message = (await telegram.getByTestId('telegram-code').textContent()) ?? '';
  const code = message.replace('/start', '').trim();
  expect(code).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  await expect(telegram.getByRole('link', { name: 'Open the bot' })).toHaveAttribute('href', new RegExp(`\\?start=${code}$`));
  await dismissToasts(page);
  await telegram.screenshot({ path: 'tests/e2e/screenshots/profile-desktop-telegram-waiting.png' });
  execFileSync('npx', ['tsx', 'server/cli/admin.ts', 'telegram', 'start', code, '--id', '777001', '--username', 'ada_trader'], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
  await telegram.getByRole('button', { name: 'Check now' }).click();
  await expect(telegram.getByText('@ada_trader')).toBeVisible();
  await expect(page.getByText('Telegram linked')).toBeVisible();

  // ---- screenshots of every section, both themes; axe on both ----
  await chooseTheme(page, 'Dark');
  await sectionShots(page, 'desktop-dark');
  await expectNoAxeViolations(page);
  await chooseTheme(page, 'Light');
  await sectionShots(page, 'desktop-light');
  await expectNoAxeViolations(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Personal information' })).toBeVisible();
  await screenshot(page, 'profile-mobile-light-top');
  await sectionShots(page, 'mobile-light');
  await chooseTheme(page, 'Dark');
  await sectionShots(page, 'mobile-dark');
  await page.goto('/profile#documents');
  await expect(page.locator('#documents .profile-doc-status').first()).toHaveText(/Uploaded$/);
  await expectScrolledTo(page, 'documents');
  await dismissToasts(page);
  await screenshot(page, 'profile-mobile-dark-anchor');
  await page.setViewportSize({ width: 1280, height: 900 });

  // ---- language: the page follows ----
  await page.locator('#settings').getByRole('radio', { name: 'Русский' }).check();
  await expect(page.getByRole('heading', { name: 'Личные данные' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Настройки интерфейса' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await page.locator('#settings').scrollIntoViewIfNeeded();
  await screenshot(page, 'profile-desktop-dark-ru');
  await page.locator('#settings').getByRole('radio', { name: 'Español' }).check();
  await expect(page.getByRole('heading', { name: 'Datos personales' })).toBeVisible();
  await page.locator('#settings').getByRole('radio', { name: 'English' }).check();
  await expect(page.getByRole('heading', { name: 'Personal information' })).toBeVisible();
});

test('an address anchor scrolls to its section, and the section navigation works', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await registerThroughForm(page, uniqueUser('anch'));
  await page.goto('/profile#security');
  await expect(page.locator('#security').getByRole('button', { name: 'Change password' })).toBeVisible();
  await expectScrolledTo(page, 'security');
  const nav = page.getByRole('navigation', { name: 'Profile sections' });
  await expect(nav.getByRole('link', { name: 'Security' })).toHaveAttribute('aria-current', 'location');
  await nav.getByRole('link', { name: 'Documents' }).click();
  await expect(page).toHaveURL(/#documents$/);
  await expectScrolledTo(page, 'documents');
  await expect(nav.getByRole('link', { name: 'Documents' })).toHaveAttribute('aria-current', 'location');
});
