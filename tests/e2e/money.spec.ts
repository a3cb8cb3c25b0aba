/**
 * Money, end to end in Chromium against the real server (issue "Money", item 8): register a
 * fresh user; deposit through the crypto address (confirmed automatically by the simulated
 * chain a few seconds later); look at the manual card requisites; deposit through the crypto
 * payment link, paying on the sandbox checkout page in another tab, and see the deposit
 * complete and the real balance rise by the amount; withdraw by card and see the pending
 * result and the real balance reduced by the held amount; then the history at
 * /profile#transactions with every row and its status, the card withdrawal's details (the card
 * number masked) and the details of the link deposit.
 * Screenshots of each deposit mode, the withdraw flow and the history at 1280x900 and 390x844
 * go to tests/e2e/screenshots/ (git-ignored).
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { registerThroughForm, screenshot, uniqueUser } from './support/app';

test.describe.configure({ timeout: 180_000 });

/** The header's balance box: account type and amount. */
async function headerBalance(page: Page) {
  const box = page.locator('.header-balance .balance-box');
  return {
    type: ((await box.locator('.balance-box-type').textContent()) ?? '').trim(),
    amount: ((await box.locator('.balance-box-amount').textContent()) ?? '').trim(),
  };
}

async function showRealAccount(page: Page) {
  await page.getByRole('button', { name: 'Balance and accounts' }).click();
  await page.getByRole('radio', { name: /Real account/ }).check();
  await page.keyboard.press('Escape');
  await expect.poll(async () => (await headerBalance(page)).type).toBe('Real account');
}

/** No axe violation inside the element the selector finds. */
async function expectAccessible(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Screenshots after the modal and toast animations have settled. */
async function settledScreenshot(page: Page, name: string) {
  await page.waitForTimeout(400);
  await screenshot(page, name);
}

async function chooseMethod(dialog: ReturnType<Page['getByRole']>, name: string) {
  await dialog.getByRole('button', { name: new RegExp(name.replace(/[()/]/g, '.')) }).click();
}

test('deposit by crypto address and by payment link, withdraw by card, see it all in the history', async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await registerThroughForm(page, uniqueUser('money'));
  await showRealAccount(page);
  expect((await headerBalance(page)).amount).toBe('$0.00');

  // ---- deposit: crypto address (integration), confirmed by the simulated chain --------------
  await page.locator('.header-deposit').click();
  const deposit = page.getByRole('dialog', { name: 'Deposit' });
  await expect(deposit.getByRole('button', { name: /Visa \/ Mastercard/ })).toBeVisible();
  // Sandbox said out loud: the simulated methods carry the badge, the manual ones do not.
  await expect(deposit.getByRole('button', { name: /USDT \(TRC20\).*Sandbox/ })).toBeVisible();
  await expect(deposit.getByRole('button', { name: /Crypto payment link.*Sandbox/ })).toBeVisible();
  await expect(deposit.getByRole('button', { name: /Visa \/ Mastercard.*Sandbox/ })).toHaveCount(0);
  await settledScreenshot(page, 'money-deposit-methods');
  await expectAccessible(page, '[role="dialog"]');
  await chooseMethod(deposit, 'USDT (TRC20)');
  const amount = deposit.getByRole('textbox', { name: /^Amount/ });
  await amount.fill('5');
  await amount.blur();
  await expect(deposit.getByText('Amount too low: minimum $10.00')).toBeVisible();
  await amount.fill('30');
  await settledScreenshot(page, 'money-deposit-amount');
  await deposit.getByRole('button', { name: 'Continue' }).click();
  await expect(deposit.getByRole('img', { name: 'QR code of the USDT payment' })).toBeVisible();
  await expect(deposit.getByText('Wallet address')).toBeVisible();
  await expect(deposit.getByText(/Test payment: no real money moves/)).toBeVisible();
  await settledScreenshot(page, 'money-deposit-crypto');
  await expect(deposit.getByText('Deposit completed')).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => (await headerBalance(page)).amount, { timeout: 15_000 }).toBe('$30.00');
  await settledScreenshot(page, 'money-deposit-complete');

  // ---- deposit: manual card requisites (looked at, then left) ------------------------------
  await deposit.getByRole('button', { name: 'New deposit' }).click();
  await chooseMethod(deposit, 'Visa / Mastercard');
  await deposit.getByRole('textbox', { name: /^Amount/ }).fill('50');
  await deposit.getByRole('button', { name: 'Continue' }).click();
  await expect(deposit.getByText('4000 0012 3456 7899')).toBeVisible();
  await expect(deposit.getByText('Expires in')).toBeVisible();
  await expect(deposit.getByRole('button', { name: 'I have paid' })).toBeEnabled();
  await settledScreenshot(page, 'money-deposit-manual');
  await expectAccessible(page, '[role="dialog"]');
  await deposit.getByRole('button', { name: 'Back' }).click();
  await deposit.getByRole('button', { name: 'Change' }).click();

  // ---- deposit: crypto payment link, paid on the sandbox checkout --------------------------
  await chooseMethod(deposit, 'Crypto payment link');
  await deposit.getByRole('textbox', { name: /^Amount/ }).fill('25');
  await deposit.getByRole('button', { name: 'Continue' }).click();
  const open = deposit.getByRole('link', { name: /Open payment page/ });
  await expect(open).toBeVisible();
  await settledScreenshot(page, 'money-deposit-link');
  const paymentUrl = await open.getAttribute('href');
  expect(paymentUrl).toMatch(/\/checkout\/sandbox\//);
  const checkout = await context.newPage();
  await checkout.goto(paymentUrl!);
  await checkout.getByRole('button', { name: /^Pay/ }).click();
  await expect(checkout.locator('body')).toContainText('Payment complete');
  await checkout.close();
  await page.bringToFront();
  await expect(deposit.getByText('Deposit completed')).toBeVisible({ timeout: 15_000 });
  await expect.poll(async () => (await headerBalance(page)).amount, { timeout: 15_000 }).toBe('$55.00');
  await expect(page.getByText('Deposit #', { exact: false }).first()).toBeVisible();

  // ---- withdraw by card: held at once, pending --------------------------------------------
  await deposit.getByRole('button', { name: 'Withdraw' }).click();
  const withdraw = page.getByRole('dialog', { name: 'Withdraw' });
  await expect(withdraw.getByText('Available on the real account')).toBeVisible();
  await expect(withdraw.getByRole('button', { name: /Crypto payment link/ })).toHaveCount(0);
  await settledScreenshot(page, 'money-withdraw-methods');
  await chooseMethod(withdraw, 'Visa / Mastercard');
  const withdrawAmount = withdraw.getByRole('textbox', { name: /^Amount/ });
  await withdrawAmount.fill('60');
  await withdrawAmount.blur();
  await expect(withdraw.getByText('Insufficient balance: $55.00 available')).toBeVisible();
  await withdrawAmount.fill('20');
  await withdraw.getByRole('textbox', { name: /^Card number/ }).fill('4111 1111 1111 1111');
  await settledScreenshot(page, 'money-withdraw-details');
  await expectAccessible(page, '[role="dialog"]');
  await withdraw.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect(withdraw.getByText('Withdrawal requested')).toBeVisible();
  await expect(withdraw.getByText('Waiting for the payment provider.')).toBeVisible();
  await expect(withdraw.getByText('up to 24 hours')).toBeVisible();
  await expect(page.getByText('Withdrawal request created')).toBeVisible();
  await expect.poll(async () => (await headerBalance(page)).amount, { timeout: 15_000 }).toBe('$35.00');
  await settledScreenshot(page, 'money-withdraw-pending');

  // ---- the history at /profile#transactions ---------------------------------------------------
  await withdraw.getByRole('button', { name: 'Transaction history' }).click();
  await expect(page).toHaveURL(/\/profile#transactions$/);
  const table = page.getByRole('table', { name: 'Transaction history' });
  await expect(table.getByRole('row')).toHaveCount(5); // header + withdrawal + link + manual + crypto
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toContainText('Withdrawal');
  await expect(rows.nth(1)).toContainText('-$20.00');
  await expect(rows.nth(1)).toContainText('Pending');
  await expect(rows.nth(2)).toContainText('+$25.00');
  await expect(rows.nth(2)).toContainText('Completed');
  await expect(rows.nth(3)).toContainText('+$50.00');
  await expect(rows.nth(3)).toContainText('Pending');
  await expect(rows.nth(4)).toContainText('+$30.00');
  await expect(rows.nth(4)).toContainText('Completed');
  await expect(rows.nth(4)).toContainText('Sandbox');
  await expect(rows.nth(2)).toContainText('Sandbox');
  await expect(rows.nth(3)).not.toContainText('Sandbox');
  // The card withdrawal: the card number comes back masked, no same-currency exchange rate.
  await rows.nth(1).getByRole('button', { name: /details/ }).click();
  const withdrawal = page.getByRole('dialog', { name: /^Transaction #\d+$/ });
  await expect(withdrawal.getByText('•••• 1111')).toBeVisible();
  await expect(withdrawal.getByText('4111 1111 1111 1111')).toHaveCount(0);
  await expect(withdrawal.getByText('up to 24 hours')).toBeVisible();
  await expect(withdrawal.getByText('Exchange rate')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(withdrawal).toHaveCount(0);
  await page.getByRole('region', { name: 'Transaction history' }).scrollIntoViewIfNeeded();
  await settledScreenshot(page, 'money-history');
  await expectAccessible(page, '.tx-section');

  await page.getByRole('combobox', { name: 'Status' }).selectOption('completed');
  await expect(table.getByRole('row')).toHaveCount(3);
  await page.getByRole('button', { name: 'Reset filters' }).first().click();
  await expect(table.getByRole('row')).toHaveCount(5);

  await rows.nth(2).getByRole('button', { name: /details/ }).click();
  const details = page.getByRole('dialog', { name: /^Transaction #\d+$/ });
  await expect(details.getByText('Basic information')).toBeVisible();
  await expect(details.getByText('Payment link', { exact: true })).toBeVisible();
  await expect(details.getByText('Balance after')).toBeVisible();
  await settledScreenshot(page, 'money-history-details');
  await expectAccessible(page, '[role="dialog"]');
  await page.keyboard.press('Escape');

  // ---- the same screens on a phone ------------------------------------------------------------
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.getByRole('region', { name: 'Transaction history' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await settledScreenshot(page, 'money-history-mobile');
  await page.locator('.header-deposit').click();
  const mobileDeposit = page.getByRole('dialog', { name: 'Deposit' });
  await expect(mobileDeposit.getByRole('button', { name: /Visa \/ Mastercard/ })).toBeVisible();
  await settledScreenshot(page, 'money-deposit-methods-mobile');
  await chooseMethod(mobileDeposit, 'USDT (TRC20)');
  await mobileDeposit.getByRole('textbox', { name: /^Amount/ }).fill('15');
  await mobileDeposit.getByRole('button', { name: 'Continue' }).click();
  await expect(mobileDeposit.getByRole('img', { name: 'QR code of the USDT payment' })).toBeVisible();
  await settledScreenshot(page, 'money-deposit-crypto-mobile');
  await page.keyboard.press('Escape');
  await expect(mobileDeposit).toHaveCount(0);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('button', { name: 'Withdraw' }).first().click();
  const mobileWithdraw = page.getByRole('dialog', { name: 'Withdraw' });
  await chooseMethod(mobileWithdraw, 'Visa / Mastercard');
  await settledScreenshot(page, 'money-withdraw-details-mobile');
});
