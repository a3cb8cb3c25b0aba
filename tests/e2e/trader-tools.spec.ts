/**
 * Trader tools (issue 16) in a real browser against the real server:
 * - keyboard trading: ? lists the shortcuts, ArrowUp / ArrowDown place orders exactly like the
 *   buttons (toast, Active list), + steps the amount, ] the time, ArrowRight the pair and P opens
 *   the pair list; nothing happens while typing in a field or once switched off;
 * - sounds: Web Audio tones are made for an opened order (oscillators counted by wrapping the
 *   browser's own AudioContext) and none once sounds are off in the interface settings;
 * - the journal: the settled keyboard orders appear in Profile → Trading journal (today);
 * - price alerts: set above and below the price from the chart, list, delete, and a fired alert
 *   toasts on two open sessions of the same account.
 * Screenshots go to tests/e2e/screenshots/.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { registerThroughForm, screenshot, uniqueUser, waitForChart } from './support/app';

/** Count every oscillator the page starts (the real AudioContext still plays them). */
async function countTones(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { AudioContext: typeof AudioContext; __tones: number };
    w.__tones = 0;
    const Real = w.AudioContext;
    w.AudioContext = class extends Real {
      createOscillator() {
        w.__tones += 1;
        return super.createOscillator();
      }
    } as typeof AudioContext;
  });
}
/** Keep the text of every toast the page shows (they leave after a few seconds). */
async function recordToasts(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { __toasts: string[] };
    w.__toasts = [];
    new MutationObserver((records) => {
      for (const r of records)
        for (const node of r.addedNodes)
          if (node instanceof HTMLElement) for (const toast of [node, ...node.querySelectorAll('.toast')]) if (toast.matches('.toast')) w.__toasts.push(toast.textContent ?? '');
    }).observe(document, { childList: true, subtree: true });
  });
}
const toastsOf = (page: Page) => page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);

const tones = (page: Page) => page.evaluate(() => (window as unknown as { __tones: number }).__tones);

const activeCards = (page: Page) => page.locator('.trading-orders .order-card');

/** Move focus off any control, as a trader who clicked the chart would. */
async function focusPage(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

test('keyboard trading, trade sounds and the trading journal', async ({ page }) => {
  test.setTimeout(120_000);
  await countTones(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerThroughForm(page, uniqueUser('keys'), 'USD');
  await waitForChart(page);
  await page.getByRole('radio', { name: 'Seconds' }).check();
  await page.getByRole('textbox', { name: 'Bet time' }).fill('5');
  await focusPage(page);

  // ? lists the shortcuts; Escape closes the list.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('rowheader', { name: 'Up (place the order)' })).toBeVisible();
  await expect(help.getByRole('checkbox', { name: 'Trade with the keyboard' })).toBeChecked();
  await screenshot(page, 'trader-tools-shortcuts');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await focusPage(page);

  // Amount and time keys step like the - / + buttons.
  const amount = page.getByRole('textbox', { name: 'Amount, USD' });
  const time = page.getByRole('textbox', { name: 'Bet time' });
  const amountBefore = await amount.inputValue();
  await page.keyboard.press('+');
  await expect(amount).not.toHaveValue(amountBefore);
  await page.keyboard.press('-');
  await expect(amount).toHaveValue(amountBefore);
  await page.keyboard.press(']');
  await expect(time).not.toHaveValue('5');
  await page.keyboard.press('[');
  await expect(time).toHaveValue('5');

  // Up and Down place orders like the buttons, each with its sound.
  const tonesBefore = await tones(page);
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('status').filter({ hasText: /Order opened: EUR\/USD Up, \$10\.00/ })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('status').filter({ hasText: /Order opened: EUR\/USD Down, \$10\.00/ })).toBeVisible();
  await expect(activeCards(page)).toHaveCount(2);
  await expect.poll(() => tones(page)).toBeGreaterThan(tonesBefore);

  // Typing in a field never trades.
  await amount.click();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(600);
  await expect(activeCards(page)).toHaveCount(2);
  await focusPage(page);

  // Both settle (5 s); the settlement sounds play too (a tie is silent).
  await expect(activeCards(page)).toHaveCount(0, { timeout: 20_000 });

  // The pair keys: next pair, then the pair list.
  const pairButton = page.getByRole('button', { name: /Choose another pair|payout/ }).first();
  const pairBefore = await pairButton.getAttribute('aria-label');
  await page.keyboard.press('ArrowRight');
  await expect(pairButton).not.toHaveAttribute('aria-label', pairBefore ?? '');
  await page.keyboard.press('p');
  const selector = page.getByRole('dialog', { name: 'Choose a pair' });
  await expect(selector).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(selector).toBeHidden();
  await focusPage(page);

  // Switched off in the list: the keys do nothing.
  await page.keyboard.press('?');
  await help.getByRole('checkbox', { name: 'Trade with the keyboard' }).uncheck();
  await page.keyboard.press('Escape');
  await focusPage(page);
  await page.keyboard.press('ArrowUp');
  await page.waitForTimeout(800);
  await expect(activeCards(page)).toHaveCount(0);

  // Sounds off in the interface settings: an order opened by the button makes no tone.
  await page.getByRole('link', { name: 'Profile' }).first().click();
  const sounds = page.getByRole('checkbox', { name: 'Trade sounds' });
  await expect(page.getByRole('checkbox', { name: 'Keyboard shortcuts' })).not.toBeChecked();
  await sounds.uncheck();
  await expect(page.locator('.toast').filter({ hasText: 'Settings saved' }).first()).toBeVisible();
  // Saved to the account: still off after a reload.
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Trade sounds' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Keyboard shortcuts' })).not.toBeChecked();

  // The journal of today has the two settled keyboard orders.
  const journal = page.locator('#journal');
  await journal.getByRole('radio', { name: 'Today' }).click();
  await expect(journal.locator('.journal-figure').filter({ hasText: 'Trades' }).locator('.journal-figure-value')).toHaveText('2');
  await expect(journal.getByRole('table', { name: 'By pair' }).getByRole('rowheader', { name: 'EUR/USD' })).toBeVisible();
  await expect(journal.getByRole('img', { name: /Net result by hour of day/ })).toBeVisible();
  await journal.scrollIntoViewIfNeeded();
  await screenshot(page, 'trader-tools-journal');

  await page.getByRole('link', { name: 'Trading' }).first().click();
  await waitForChart(page);
  const silentBefore = await tones(page);
  await page.getByRole('button', { name: 'Up', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /Order opened: .* Up/ })).toBeVisible();
  await page.waitForTimeout(500);
  expect(await tones(page)).toBe(silentBefore);
});

test('price alerts: set from the chart, list, delete, and a fired alert toasts on every open session', async ({ page, context }) => {
  test.setTimeout(150_000);
  await recordToasts(context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerThroughForm(page, uniqueUser('alert'), 'USD');
  await waitForChart(page);
  // A second session of the same account (another tab, phone-sized) is open all along.
  const second = await context.newPage();
  await second.setViewportSize({ width: 390, height: 844 });
  await second.goto('/trading');
  await waitForChart(second);

  await page.getByRole('button', { name: 'Price alerts' }).click();
  const dialog = page.getByRole('dialog', { name: /Price alert · EUR\/USD/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('No alerts yet. Set one above.')).toBeVisible();
  const price = dialog.getByRole('textbox', { name: 'Price' });
  // Prefilled with the current price: "above" at (or under) the current price is refused, in plain words.
  await expect(price).toHaveValue(/^\d+\.\d{5}$/);
  await price.fill('0.5');
  await dialog.getByRole('button', { name: 'Set alert' }).click();
  await expect(dialog.getByText('An "above" alert must be higher than the current price')).toBeVisible();

  // Far away: set, listed as waiting, then deleted.
  await price.fill('9.5');
  await dialog.getByRole('button', { name: 'Set alert' }).click();
  await expect(dialog.getByRole('listitem').filter({ hasText: 'EUR/USD above 9.50000' })).toBeVisible();
  await expect(dialog.getByText('1 of 20 waiting')).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete alert: EUR/USD above 9.50000' }).click();
  await expect(dialog.getByText('No alerts yet. Set one above.')).toBeVisible();

  // Two points below the price and two above, each set again if the price moved past it before
  // the server checked it (the refusal is in plain words): the next moves fire at least one.
  const rows = dialog.getByRole('listitem');
  const setAlert = dialog.getByRole('button', { name: 'Set alert' });
  for (const direction of ['below', 'above'] as const) {
    await dialog.getByRole('radio', { name: direction === 'below' ? 'Below' : 'Above' }).check();
    const set = rows.filter({ hasText: `EUR/USD ${direction}` });
    for (let attempt = 0; attempt < 10 && (await set.count()) === 0; attempt++) {
      const quote = Number((await dialog.getByText(/^Now /).textContent())?.replace(/[^\d.]/g, ''));
      await price.fill((direction === 'below' ? quote - 0.00002 : quote + 0.00002).toFixed(5));
      await setAlert.click();
      // Answered (the button is back from "Setting the alert…"): listed, or refused.
      await expect(setAlert).toBeEnabled();
    }
    await expect(set).toHaveCount(1);
  }
  await expect(rows).toHaveCount(2);
  await screenshot(page, 'trader-tools-alerts');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  const fired = /EUR\/USD is (above|below) \d\.\d{5}: the price is \d\.\d{5}/;
  await expect.poll(async () => (await toastsOf(page)).some((text) => fired.test(text)), { timeout: 90_000 }).toBe(true);
  await expect.poll(async () => (await toastsOf(second)).some((text) => fired.test(text)), { timeout: 5_000 }).toBe(true);
  await screenshot(second, 'trader-tools-alert-fired-phone');

  // The list shows it fired.
  await page.getByRole('button', { name: /^Price alerts/ }).click();
  await expect(page.getByRole('dialog').getByText(/^Fired /).first()).toBeVisible();
});
