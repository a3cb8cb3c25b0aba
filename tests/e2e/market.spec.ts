/**
 * Honest market data in a real browser against the default server (simulator feed): every pair
 * says "Simulated" in the pair selector and in the chart header; a settled order's card opens a
 * Receipt dialog with the rule applied, both ticks (sequence, time to the millisecond in the
 * device's zone with its UTC offset: the browser runs in Tokyo here, issue 26; price) and the
 * tick-log hashes sealing them. Screenshots (desktop and phone) go to
 * tests/e2e/screenshots/market-*.png for a person to look at.
 */
import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { registerThroughForm, screenshot, uniqueUser } from './support/app';

// A device zone that is not the server's: the receipt follows the device, like every other time.
test.use({ timezoneId: 'Asia/Tokyo' });

test('simulated pairs are labelled, and a settled order has a receipt with its ticks and chain hashes', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerThroughForm(page, uniqueUser('mkt'), 'USD');
  await expect(page.getByRole('button', { name: /Choose another pair/ })).toBeVisible();
  await expect(page.getByTestId('chart-text')).toContainText('last price');

  // The chart header says the current pair's prices are simulated.
  const toolbar = page.locator('.chart-toolbar');
  await expect(toolbar.getByText('Simulated', { exact: true })).toBeVisible();

  // So does the pair selector: each pair in its accessible name, each group once in its header.
  await page.getByRole('button', { name: /Choose another pair/ }).click();
  const selector = page.getByRole('dialog', { name: 'Choose a pair' });
  await selector.getByRole('searchbox', { name: 'Search pairs' }).fill('BTC');
  const option = selector.getByRole('button', { name: /^BTC\/USD, Crypto, payout \d+%, simulated prices$/ });
  await expect(option).toBeVisible();
  await expect(selector.getByRole('heading', { name: /^Crypto/ }).getByText('Simulated', { exact: true })).toBeVisible();
  await expect(option.getByText('Simulated', { exact: true })).toHaveCount(0);
  await screenshot(page, 'market-pair-selector-desktop');
  await option.click();
  await expect(selector).toBeHidden();
  await expect(page.getByTestId('chart-text')).toContainText('BTC/USD');

  // A 5-second demo order, settled.
  await page.getByRole('radio', { name: 'Seconds' }).check();
  await page.getByRole('textbox', { name: 'Bet time' }).fill('5');
  await page.getByRole('textbox', { name: 'Amount, USD' }).fill('10');
  await page.getByRole('button', { name: 'Down', exact: true }).click();
  await expect(page.getByText(/(Won on BTC\/USD|Lost on BTC\/USD|Tie on BTC\/USD)/)).toBeVisible({ timeout: 20_000 });

  const panel = page.locator('.trading-orders');
  await panel.getByRole('tab', { name: 'All' }).click();
  const card = panel.locator('.order-card').filter({ hasText: 'BTC/USD' }).first();
  await card.locator('.order-summary').click();
  await card.getByRole('button', { name: 'Receipt' }).click();

  const dialog = page.getByRole('dialog', { name: /^Receipt for order #\d+$/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Settled on the last tick at or before expiry')).toBeVisible();
  await expect(dialog.getByText('Simulated by the platform')).toBeVisible();
  await expect(dialog.getByRole('region', { name: 'Entry tick' })).toContainText(/#\d+/);
  await expect(dialog.getByRole('region', { name: 'Exit tick' })).toContainText(/\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d\.\d{3} UTC\+09:00/);
  // Both ticks are sealed in the chain: each shows its batch hash (64 hex digits).
  await expect(dialog.locator('code.receipt-hash').filter({ hasText: /^[0-9a-f]{64}$/ })).not.toHaveCount(0);
  await expect(dialog.getByText('Not sealed yet')).toHaveCount(0);
  await page.waitForTimeout(400);
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await screenshot(page, 'market-receipt-desktop');

  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();

  // On a phone: the chart header keeps its label, and the receipt opens from the orders sheet.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/trading');
  await expect(page.getByTestId('chart-text')).toContainText('last price');
  await expect(page.locator('.chart-toolbar').getByText('Simulated', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'market-chart-phone');
  await page.getByRole('button', { name: /^Orders/ }).click();
  const sheet = page.getByRole('dialog', { name: 'Orders' });
  await sheet.getByRole('tab', { name: 'All' }).click();
  const phoneCard = sheet.locator('.order-card').filter({ hasText: 'BTC/USD' }).first();
  await phoneCard.locator('.order-summary').click();
  await phoneCard.getByRole('button', { name: 'Receipt' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Settled on the last tick at or before expiry')).toBeVisible();
  await screenshot(page, 'market-receipt-phone');
});
