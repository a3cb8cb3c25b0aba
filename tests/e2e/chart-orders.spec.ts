/**
 * Trades on the chart (issue 26 item 2) in a real browser against the real server: a fresh user
 * places a 5-second order and sees it drawn with its label (direction, stake, result if it
 * closed now, time left), then a win/loss marker where it ended; then 1, 3 and 10 open orders
 * whose labels stack without overlapping, inside the chart; a price alert drawn as a line;
 * Heikin-Ashi; axe finds nothing on the chart with ten labels. Screenshots of each go to tests/e2e/screenshots/ for a person to look at.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { registerThroughForm, screenshot, uniqueUser, waitForChart } from './support/app';

async function boxes(items: Locator) {
  const n = await items.count();
  const out: { x: number; y: number; width: number; height: number }[] = [];
  for (let i = 0; i < n; i += 1) out.push((await items.nth(i).boundingBox())!);
  return out;
}

async function place(page: Page, direction: 'Up' | 'Down') {
  const before = await page.getByRole('list', { name: 'Your trades on the chart' }).getByRole('listitem', { name: /left$/ }).count().catch(() => 0);
  await page.getByRole('button', { name: direction, exact: true }).click();
  await expect(page.getByRole('list', { name: 'Your trades on the chart' }).getByRole('listitem', { name: /left$/ })).toHaveCount(before + 1);
}

test('open orders drawn on the chart with stacked labels, a settled marker, an alert line, Heikin-Ashi', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerThroughForm(page, uniqueUser('marks'), 'USD');
  await waitForChart(page);
  await page.getByRole('radio', { name: '15s' }).check();
  await page.getByRole('textbox', { name: 'Amount, USD' }).fill('10');
  await page.getByRole('radio', { name: 'Seconds' }).check();

  // A 5-second order: its label while open, then its marker where it ended.
  await page.getByRole('textbox', { name: 'Bet time' }).fill('5');
  const marks = page.getByRole('list', { name: 'Your trades on the chart' });
  await place(page, 'Up');
  const label = marks.getByRole('listitem', { name: /left$/ });
  await expect(label).toHaveAccessibleName(/^Up \$10\.00: (\+\$\d+\.\d\d|-\$10\.00|\$0\.00) if it closed now, 0:0\d left$/);
  await expect(label).toContainText('$10.00');
  await screenshot(page, 'chart-orders-1-short');
  const marker = marks.getByRole('listitem', { name: /^(Won \+\$\d+\.\d\d|Lost -\$10\.00|Stake back) at 1\.\d{5}$/ });
  await expect(marker).toBeVisible({ timeout: 20_000 });
  await expect(label).toHaveCount(0);
  await screenshot(page, 'chart-orders-settled');

  // Orders that stay open: 1, 3, then 10, their labels never overlapping.
  await page.getByRole('textbox', { name: 'Bet time' }).fill('90');
  await place(page, 'Up');
  await screenshot(page, 'chart-orders-1');
  await place(page, 'Down');
  await place(page, 'Up');
  await screenshot(page, 'chart-orders-3');
  for (let i = 0; i < 7; i += 1) await place(page, i % 2 ? 'Up' : 'Down');
  const open = marks.getByRole('listitem', { name: /left$/ });
  await expect(open).toHaveCount(10);
  // Placed (visible) once the chart laid them out.
  for (let i = 0; i < 10; i += 1) await expect(open.nth(i)).toBeVisible();
  const chartBox = (await page.getByTestId('candle-chart').boundingBox())!;
  const placed = await boxes(open);
  for (const [i, a] of placed.entries()) {
    expect(a.y).toBeGreaterThanOrEqual(chartBox.y - 1);
    expect(a.y + a.height).toBeLessThanOrEqual(chartBox.y + chartBox.height + 1);
    for (const b of placed.slice(i + 1)) {
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart).toBe(true);
    }
  }
  await screenshot(page, 'chart-orders-10');
  // axe finds nothing on the chart with its labels (contrast of every label's text included).
  const axe = await new AxeBuilder({ page }).include('.chart-panel').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // A price alert a little above the price: a line on the chart.
  await page.getByRole('button', { name: /^Price alerts/ }).click();
  const dialog = page.getByRole('dialog', { name: /Price alert · EUR\/USD/ });
  const quote = Number((await dialog.getByText(/^Now /).textContent())?.replace(/[^\d.]/g, ''));
  await dialog.getByRole('radio', { name: 'Above' }).check();
  await dialog.getByRole('textbox', { name: 'Price' }).fill((quote + 0.0003).toFixed(5));
  await dialog.getByRole('button', { name: 'Set alert' }).click();
  await expect(dialog.getByRole('listitem').filter({ hasText: 'EUR/USD above' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await screenshot(page, 'chart-alert-line');

  // Heikin-Ashi keeps the orders on the chart.
  await page.getByRole('toolbar', { name: 'Chart tools' }).getByRole('button', { name: /Chart type/ }).click();
  await page.getByRole('menuitemradio', { name: 'Heikin-Ashi' }).click();
  await expect(page.getByTestId('candle-chart')).toHaveAttribute('data-chart-type', 'heikin_ashi');
  await expect(open).toHaveCount(10);
  await page.waitForTimeout(500);
  await screenshot(page, 'chart-heikin-ashi');

  // A phone: the labels are there too.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(open.first()).toBeVisible();
  await page.waitForTimeout(500);
  await screenshot(page, 'chart-orders-10-phone');
});
