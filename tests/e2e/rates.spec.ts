/**
 * One source of prices in the wallet (docs/money.md, "Exchange rates"): choosing the Bitcoin
 * method shows the rate from the market's BTC/USD with the price's time, USDT says its rate is
 * configured, and an EUR account sees the card's limits as round figures. Screenshots at
 * 1280x900 and 390x844 go to tests/e2e/screenshots/ (git-ignored).
 */
import { test, expect } from '@playwright/test';
import { registerThroughForm, screenshot, uniqueUser } from './support/app';

test.describe.configure({ timeout: 120_000 });

test('the deposit shows the market rate, its pair and time, and round limits', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await registerThroughForm(page, uniqueUser('rates'));
  await page.locator('.header-deposit').click();
  const deposit = page.getByRole('dialog', { name: 'Deposit' });
  await deposit.getByRole('button', { name: /Bitcoin/ }).click();
  const rate = deposit.locator('.rate-note');
  await expect(rate.locator('.rate-value')).toHaveText(/^1 USD = 0\.0000\d+ BTC$/);
  await expect(rate.locator('.rate-source')).toHaveText(/^Market price of BTC\/USD at \d\d:\d\d:\d\d$/);
  // The shown rate is the chart's BTC/USD price (about 94,000 in the simulator), not the configured ~64,500.
  const shown = Number((await rate.locator('.rate-value').textContent())!.replace(/^1 USD = | BTC$/g, ''));
  expect(1 / shown).toBeGreaterThan(70_000);
  await page.waitForTimeout(300);
  await screenshot(page, 'rates-btc-1280');

  await page.setViewportSize({ width: 390, height: 844 });
  await deposit.getByRole('button', { name: 'Back' }).click();
  await deposit.getByRole('button', { name: /USDT \(TRC20\)/ }).click();
  await expect(deposit.locator('.rate-source')).toHaveText('Configured rate for USDT (no market pair)');
  await page.waitForTimeout(300);
  await screenshot(page, 'rates-usdt-390');

  await deposit.getByRole('button', { name: 'Back' }).click();
  await deposit.getByLabel('Account currency').selectOption('EUR');
  await expect(deposit.getByRole('button', { name: /Visa \/ Mastercard/ })).toContainText(/Min €\d+\.00 · Max €\d,\d00\.00/);
  await page.waitForTimeout(300);
  await screenshot(page, 'rates-eur-limits-390');
});
