/**
 * Issue 26, the smaller items, in a real browser: in Russian and Spanish the "coming soon"
 * badges of the sidebar fit (never clipped at the sidebar's edge) and the orders panel's account
 * filter keeps each label inside its own segment ("Cuenta real" and "Cuenta demo" no longer run
 * together). Axe finds nothing on the screen. Screenshots go to tests/e2e/screenshots/small-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { registerThroughForm, screenshot, uniqueUser } from './support/app';

/** Elements whose text runs past their own box or past the sidebar's edge. */
async function overflowing(page: Page, selector: string, container?: string) {
  return page.evaluate(
    ({ selector, container }) => {
      const edge = container ? document.querySelector(container)!.getBoundingClientRect().right : Infinity;
      return [...document.querySelectorAll<HTMLElement>(selector)]
        .filter((el) => el.offsetParent !== null)
        .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > edge + 0.5)
        .map((el) => el.textContent);
    },
    { selector, container },
  );
}

for (const language of ['ru', 'es'] as const) {
  test(`${language}: the coming-soon badges and the account filter fit`, async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await registerThroughForm(page, uniqueUser(`sm${language}`));
    await page.evaluate((l) => localStorage.setItem('language', JSON.stringify(l)), language);
    await page.reload();
    await expect(page.getByTestId('candle-chart').locator('canvas').first()).toBeVisible();
    const soon = page.locator('.app-sidebar details.nav-soon');
    await soon.locator('summary').click();
    await expect(soon.locator('.nav-badge').first()).toBeVisible();
    expect(await page.locator('.app-sidebar .nav-badge').count()).toBeGreaterThan(4);
    expect(await overflowing(page, '.app-sidebar .nav-badge', '.app-sidebar')).toEqual([]);
    expect(await overflowing(page, '.orders-filter .segmented-option, .bet-panel .segmented-option')).toEqual([]);
    await screenshot(page, `small-${language}-sidebar-orders`);
    const axe = await new AxeBuilder({ page }).include('.app-sidebar').include('.orders-filter').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
