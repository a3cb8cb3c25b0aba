/**
 * The pair selector as a market overview (issue 26 item 4) in a real browser against the default
 * server (simulator feed): the price header's change is the 24-hour change and says so ("24h"),
 * each pair shows its 24-hour change, a starred pair is in the Favourites tab and still there
 * after a reload (saved in the account's front settings), sorting by payout puts the highest
 * first, and the selector has no axe violations. Screenshots (desktop and a 390x844 phone) go to
 * tests/e2e/screenshots/pair-selector-*.png for a person to look at.
 */
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { registerThroughForm, screenshot, uniqueUser, waitForChart } from './support/app';

async function openSelector(page: Page) {
  await page.getByRole('button', { name: /Choose another pair/ }).click();
  const selector = page.getByRole('dialog', { name: 'Choose a pair' });
  await expect(selector).toBeVisible();
  return selector;
}

test('the header shows the 24h change; a favourite survives a reload; sorting by payout', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerThroughForm(page, uniqueUser('fav'), 'USD');
  await waitForChart(page);

  // The change beside the price is the 24-hour change, labelled so.
  const change = page.locator('.chart-toolbar .chart-change');
  await expect(change).toBeVisible({ timeout: 20_000 });
  await expect(change).toContainText(/24h|since/);
  await expect(change).toContainText(/%/);

  const selector = await openSelector(page);
  const btc = selector.getByRole('button', { name: /^BTC\/USD, Crypto/ });
  await expect(btc).toBeVisible();
  // Every listed pair shows a signed 24-hour change once the rates came.
  await expect(btc.locator('.pair-option-change')).toHaveText(/^(24h|since .+) [+−]?\d+\.\d\d%$/);

  await selector.getByRole('button', { name: 'Add BTC/USD to favourites' }).click();
  await expect(selector.getByRole('button', { name: 'Remove BTC/USD from favourites' })).toBeVisible();
  await selector.getByRole('tab', { name: 'Favourites' }).click();
  await expect(selector.getByRole('listitem')).toHaveCount(1);
  await expect(selector.getByRole('button', { name: /^BTC\/USD, Crypto/ })).toBeVisible();
  await screenshot(page, 'pair-selector-favourites-desktop');

  // Saved with the account: after a reload the star is still there.
  await page.reload();
  await waitForChart(page);
  const again = await openSelector(page);
  await again.getByRole('tab', { name: 'Favourites' }).click();
  await expect(again.getByRole('button', { name: /^BTC\/USD, Crypto/ })).toBeVisible();
  await expect(again.getByRole('button', { name: 'Remove BTC/USD from favourites' })).toBeVisible();

  // Sorted by payout within each group: the forex group's first pair pays the most.
  await again.getByRole('tab', { name: 'All' }).click();
  await again.getByRole('combobox', { name: 'Sort pairs' }).selectOption({ label: 'Payout: highest first' });
  const payouts = await again.locator('section.pair-group').first().locator('.pair-option-payout').allTextContents();
  const numbers = payouts.map((p) => Number.parseInt(p, 10));
  expect(numbers.length).toBeGreaterThan(3);
  expect([...numbers].sort((a, b) => b - a)).toEqual(numbers);
  await screenshot(page, 'pair-selector-desktop');

  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
});

test('on a 390x844 phone the selector fits, with the change and the star on each row', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await registerThroughForm(page, uniqueUser('favm'), 'USD');
  await waitForChart(page);
  const selector = await openSelector(page);
  const eur = selector.getByRole('button', { name: /^EUR\/USD, Forex/ });
  await expect(eur).toBeVisible();
  await expect(eur.locator('.pair-option-change')).toHaveText(/^(24h|since .+) [+−]?\d+\.\d\d%$/);
  const star = selector.getByRole('button', { name: 'Add EUR/USD to favourites' });
  const box = await star.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  await screenshot(page, 'pair-selector-phone');
  await page.getByRole('button', { name: /Close/ }).first().click();
  await screenshot(page, 'pair-selector-phone-header');
});
