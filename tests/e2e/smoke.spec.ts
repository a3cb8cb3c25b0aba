import { test, expect } from '@playwright/test';

test('the server serves the SPA', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText('TradeTerminal')).toBeVisible();
});
