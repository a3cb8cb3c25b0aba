/**
 * Chart tools (issue 16) in a real browser against the real server: a fresh user switches the
 * chart to Heikin-Ashi, adds two indicators (EMA on the price, RSI in its own pane), edits the
 * EMA's period, draws a horizontal line and a trend line by clicking the chart; another device
 * (a fresh browser context logging in) gets the type, both indicators with their periods and
 * both lines from the server's front settings; a removed indicator stays removed after a reload. Desktop and phone (390x844)
 * screenshots go to tests/e2e/screenshots/ for a person to look at.
 */
import { expect, test, type Page } from '@playwright/test';
import { logIn, registerThroughForm, screenshot, uniqueUser, waitForChart } from './support/app';

/** lightweight-charts' table rows: one per pane, one per separator between panes, and the time axis. */
async function paneCount(page: Page): Promise<number> {
  return page.locator('[data-testid="candle-chart"] table tr').count();
}

test('switch the chart type, add two indicators, draw a line, reload: the setup is restored', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const user = await registerThroughForm(page, uniqueUser('chart'), 'USD');
  await expect(page).toHaveURL(/\/trading/);
  await waitForChart(page);
  const tools = page.getByRole('toolbar', { name: 'Chart tools' });
  const chart = page.getByTestId('candle-chart');
  const panesBefore = await paneCount(page);

  // Chart type.
  await tools.getByRole('button', { name: /Chart type/ }).click();
  await page.getByRole('menuitemradio', { name: 'Heikin-Ashi' }).click();
  await expect(chart).toHaveAttribute('data-chart-type', 'heikin_ashi');
  await expect(tools.getByRole('button', { name: /Chart type/ })).toContainText('Heikin-Ashi');

  // Two indicators: EMA on the price, RSI in its own pane.
  await tools.getByRole('button', { name: /Indicators/ }).click();
  await page.getByRole('menuitem', { name: 'Exponential moving average (EMA)' }).click();
  await tools.getByRole('button', { name: /Indicators/ }).click();
  await page.getByRole('menuitem', { name: 'Relative Strength Index (RSI)' }).click();
  const legend = page.getByRole('list', { name: 'Indicators and drawings on the chart' });
  await expect(legend.getByText('EMA 9')).toBeVisible();
  await expect(legend.getByText('RSI 14')).toBeVisible();
  await expect.poll(() => paneCount(page)).toBe(panesBefore + 2);

  // Edit the EMA: period 21.
  await legend.getByRole('button', { name: 'Edit EMA 9' }).click();
  const editor = page.getByRole('region', { name: 'EMA 9 settings' });
  await editor.getByLabel('Period').fill('1');
  await editor.getByRole('button', { name: 'Apply' }).click();
  await expect(editor.getByRole('alert')).toContainText('from 2 to 200');
  await editor.getByLabel('Period').fill('21');
  await editor.getByRole('radio', { name: 'Violet' }).check();
  await editor.getByRole('button', { name: 'Apply' }).click();
  await expect(legend.getByText('EMA 21')).toBeVisible();

  // A horizontal line where the chart is clicked.
  await tools.getByRole('button', { name: 'Horizontal line' }).click();
  await expect(tools.getByRole('button', { name: 'Horizontal line' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Click the chart where the line goes' })).toBeVisible();
  const box = (await chart.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.3);
  await expect(legend.getByText(/^Line at /)).toBeVisible();
  await expect(tools.getByRole('button', { name: 'Horizontal line' })).toHaveAttribute('aria-pressed', 'false');

  // A trend line: two clicks.
  await tools.getByRole('button', { name: 'Trend line' }).click();
  await expect(page.getByRole('status').filter({ hasText: "Click the chart at the line's first point" })).toBeVisible();
  await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.6);
  await expect(page.getByRole('status').filter({ hasText: 'Now click its second point' })).toBeVisible();
  await page.mouse.click(box.x + box.width * 0.7, box.y + box.height * 0.2);
  await expect(legend.getByText('Trend line 1')).toBeVisible();
  await page.waitForTimeout(1500);
  await screenshot(page, 'chart-tools-desktop');

  // Another device: a fresh browser context logs in; the setup comes from the server's front settings.
  const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const device = await other.newPage();
  await logIn(device, user.username, user.password);
  await waitForChart(device);
  const otherLegend = device.getByRole('list', { name: 'Indicators and drawings on the chart' });
  await expect(device.getByTestId('candle-chart')).toHaveAttribute('data-chart-type', 'heikin_ashi');
  await expect(otherLegend.getByText('EMA 21')).toBeVisible();
  await expect(otherLegend.getByText('RSI 14')).toBeVisible();
  await expect(otherLegend.getByText(/^Line at /)).toBeVisible();
  await expect(otherLegend.getByText('Trend line 1')).toBeVisible();
  await expect.poll(() => paneCount(device)).toBe(panesBefore + 2);
  await other.close();

  // Remove the RSI: its pane goes, and it stays removed after another reload.
  await legend.getByRole('button', { name: 'Remove RSI 14' }).click();
  await expect(legend.getByText('RSI 14')).toHaveCount(0);
  await expect.poll(() => paneCount(page)).toBe(panesBefore);
  await page.waitForTimeout(500);
  await page.reload();
  await waitForChart(page);
  await expect(legend.getByText('EMA 21')).toBeVisible();
  await expect(legend.getByText('RSI 14')).toHaveCount(0);

  // Phone layout.
  await tools.getByRole('button', { name: /Indicators/ }).click();
  await page.getByRole('menuitem', { name: 'MACD' }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(1500);
  await screenshot(page, 'chart-tools-phone');
  const toolsBox = (await tools.boundingBox())!;
  expect(toolsBox.width).toBeLessThanOrEqual(390);
});
