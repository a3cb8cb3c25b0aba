/**
 * Issue 26, the phone's trade bar and quiet feedback, in Debian's Chromium at 390x844 and
 * 360x740 in English, Russian and Spanish: after sign-up, /trading shows the trade bar (amount,
 * time, Up, Down, Orders) wholly inside the viewport without a scroll, the candles keep at least
 * 45 % of the height, axe finds nothing on the bar; an order puts its count on the Orders button,
 * which opens the orders in a bottom sheet. Choosing a timeframe toasts nothing. Three orders
 * that settle together say so in one toast ("3 trades closed: ..."), shown above the bar and
 * below the price. A saved account type or currency confirms beside its control, with no toast.
 * Screenshots go to tests/e2e/screenshots/phone-*.png for a person to look at.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { registerThroughForm, screenshot, uniqueUser, waitForChart } from './support/app';

type Messages = { [key: string]: string | Messages };
const LANGUAGES = ['en', 'ru', 'es'] as const;
type Language = (typeof LANGUAGES)[number];
const locales = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, JSON.parse(fs.readFileSync(path.resolve('locales', `${lang}.json`), 'utf8')) as Messages]),
) as Record<Language, Messages>;

function text(lang: Language, key: string, params: Record<string, string | number> = {}): string {
  let value: string | Messages = locales[lang];
  for (const part of key.split('.')) value = (value as Messages)[part];
  if (typeof value !== 'string') throw new Error(`no text for ${key} in ${lang}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]));
}

function escape(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function chooseLanguage(page: Page, from: Language, to: Language) {
  await page.getByRole('button', { name: text(from, 'nav.account_menu') }).click();
  await page.getByRole('button', { name: new RegExp(`^${escape(text(from, 'nav.language'))}`) }).click();
  await page.getByRole('menuitemradio', { name: text(from, `nav.language_names.${to}`) }).click();
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).toHaveAttribute('lang', to);
}

/** The element is wholly inside the viewport as it is, without a scroll. */
async function expectInViewport(page: Page, name: string, box: { x: number; y: number; width: number; height: number } | null) {
  const viewport = page.viewportSize();
  expect(box, `${name} is drawn`).not.toBeNull();
  expect(viewport).not.toBeNull();
  if (!box || !viewport) return;
  expect(box.y, `${name} top`).toBeGreaterThanOrEqual(0);
  expect(box.x, `${name} left`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${name} bottom`).toBeLessThanOrEqual(viewport.height + 0.5);
  expect(box.x + box.width, `${name} right`).toBeLessThanOrEqual(viewport.width + 0.5);
}

async function checkTradeBar(page: Page, lang: Language, width: number, height: number) {
  const bar = page.locator('.trading-side');
  const up = page.getByRole('button', { name: text(lang, 'trading.up'), exact: true });
  const down = page.getByRole('button', { name: text(lang, 'trading.down'), exact: true });
  const amount = page.getByRole('textbox', { name: text(lang, 'trading.amount_label', { currency: 'USD' }) });
  const time = page.getByRole('textbox', { name: text(lang, 'trading.bet_time') });
  const orders = page.getByRole('button', { name: new RegExp(`^${escape(text(lang, 'orders.title'))}`) });
  await expect(up).toBeVisible();
  // Nothing scrolled: the page is where it opens.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  for (const [name, locator] of [['trade bar', bar], ['Up', up], ['Down', down], ['amount', amount], ['bet time', time], ['Orders', orders]] as const) {
    await expectInViewport(page, `${name} (${lang}, ${width}x${height})`, await locator.boundingBox());
  }
  // The candles keep at least 45 % of the height, and end above the bar.
  const chart = await page.locator('.chart-body').boundingBox();
  const barBox = await bar.boundingBox();
  expect(chart && chart.height / height, `chart share (${lang}, ${width}x${height})`).toBeGreaterThanOrEqual(0.45);
  expect(chart && barBox && chart.y + chart.height).toBeLessThanOrEqual((barBox?.y ?? 0) + 0.5);
  // No text in the bar is cut at its edge.
  expect(await bar.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const axe = await new AxeBuilder({ page }).include('.trading-side').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await screenshot(page, `phone-trade-bar-${width}x${height}-${lang}`);
}

for (const [width, height] of [
  [390, 844],
  [360, 740],
] as const) {
  test(`the trade bar is on screen at ${width}x${height} in every language, and the orders open in a sheet`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width, height });
    await registerThroughForm(page, uniqueUser('phone'), 'USD');
    await waitForChart(page);

    // Choosing a timeframe saves without a toast.
    await page.getByRole('radio', { name: '15m' }).check();
    await page.waitForTimeout(1000);
    await expect(page.locator('.toast').filter({ hasText: /saved/ })).toHaveCount(0);

    let current: Language = 'en';
    for (const lang of LANGUAGES) {
      if (lang !== current) await chooseLanguage(page, current, lang);
      current = lang;
      await checkTradeBar(page, lang, width, height);
    }

    // An order: its count on the Orders button, its card in the sheet.
    await page.getByRole('button', { name: text('es', 'trading.up'), exact: true }).click();
    const ordersButton = page.getByRole('button', { name: text('es', 'orders.button_with_count', { count: 1 }) });
    await expect(ordersButton).toBeVisible();
    await expect(page.getByTestId('orders-count-badge')).toHaveText('1');
    await screenshot(page, `phone-trade-bar-${width}x${height}-order`);
    await ordersButton.click();
    const sheet = page.getByRole('dialog', { name: text('es', 'orders.title') });
    await expect(sheet).toBeVisible();
    await expect(sheet.locator('.order-card')).toHaveCount(1);
    await page.waitForTimeout(400);
    const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await screenshot(page, `phone-orders-sheet-${width}x${height}`);
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
  });
}

test('orders that settle together collapse into one toast, above the trade bar and below the price', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await registerThroughForm(page, uniqueUser('phtoast'), 'USD');
  await waitForChart(page);
  await page.getByRole('button', { name: text('en', 'trading.switch_to_seconds') }).click();
  await page.getByRole('textbox', { name: text('en', 'trading.bet_time') }).fill('5');
  const up = page.getByRole('button', { name: 'Up', exact: true });
  for (let i = 0; i < 3; i += 1) {
    await up.click();
    await expect(page.getByTestId('orders-count-badge')).toHaveText(String(i + 1));
  }
  const collapsed = page.locator('.toast').filter({ hasText: /3 trades closed: [+-]?-?\$\d+\.\d\d/ });
  await expect(collapsed).toHaveCount(1, { timeout: 20_000 });
  // One toast for the three: no single-order settlement toast beside it.
  await expect(page.locator('.toast').filter({ hasText: /(Won|Lost|Tie) on / })).toHaveCount(0);
  const toast = await collapsed.boundingBox();
  const bar = await page.locator('.trading-side').boundingBox();
  const price = await page.locator('.chart-price').boundingBox();
  expect(toast && bar && toast.y + toast.height).toBeLessThanOrEqual(bar?.y ?? 0);
  expect(toast && price && toast.y).toBeGreaterThanOrEqual((price?.y ?? 0) + (price?.height ?? 0));
  await screenshot(page, 'phone-settled-toast');
});

test('a saved account type and currency confirm beside their control, not in a toast', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await registerThroughForm(page, uniqueUser('quiet'), 'USD');
  await waitForChart(page);
  await page.getByRole('button', { name: 'Balance and accounts' }).click();
  const panel = page.locator('.balance-panel');
  const target = (await page.getByRole('radio', { name: /Real account/ }).isChecked()) ? /Demo account/ : /Real account/;
  await page.getByRole('radio', { name: target }).check();
  await expect(panel.getByRole('status').filter({ hasText: 'Account type changed' })).toBeVisible();
  await panel.getByRole('combobox', { name: 'Currency' }).selectOption('EUR');
  await expect(panel.getByRole('status').filter({ hasText: 'Currency changed' })).toBeVisible();
  await expect(panel.getByRole('status').filter({ hasText: 'Account type changed' })).toHaveCount(0);
  await expect(page.locator('.toast').filter({ hasText: /changed|saved/ })).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).include('.balance-panel').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await screenshot(page, 'phone-quiet-balance-panel-desktop');
});
