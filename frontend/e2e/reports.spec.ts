import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  createVendorViaApi,
  expectNoA11yViolations,
  registerViaUi,
  uniqueAccount,
  uniqueName,
  watchForPageProblems,
} from './helpers';

/**
 * The Professional reports against the real server. A new organization is Free; it becomes
 * Professional the way billing.spec.ts pays: Checkout on the Stripe-shaped server
 * (scripts/stripe_fake.py), the payment marked there, and the return to /payment-success.
 */
const stripeUrl = process.env.E2E_STRIPE_URL ?? 'http://127.0.0.1:5198';

async function becomeProfessional(page: Page, request: APIRequestContext) {
  await page.getByRole('button', { name: 'Upgrade Now' }).first().click();
  await expect(page).toHaveURL(new RegExp(`^${stripeUrl}/c/pay/cs_test_e2e\\d+$`));
  const sessionId = new URL(page.url()).pathname.split('/').pop() ?? '';
  const paid = await request.post(`${stripeUrl}/_test/sessions/${sessionId}/pay`, {
    data: { subscription: `sub_${sessionId}` },
  });
  expect(paid.status()).toBe(200);
  await page.goto(`/payment-success?session_id=${sessionId}&upgrade_success=true`);
  await expect(page.getByText('Your account is now on the Professional plan.')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 5_000 });
}

test('a Professional account sees the trend chart and the non-compliant vendors, and prints without the navigation', async ({
  page,
  request,
}) => {
  const problems = watchForPageProblems(page);
  await registerViaUi(page, uniqueAccount('e2e-reports'));
  await becomeProfessional(page, request);
  // No documents at all: the vendor is non-compliant, its documents missing.
  const name = uniqueName('Harbor Landscaping');
  const id = await createVendorViaApi(page, { name });

  await page.getByTestId('sidebar').getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();

  const trend = page.getByRole('region', { name: 'Compliance Trend' });
  await expect(trend.getByRole('img', { name: /^Vendors by status from / })).toBeVisible();
  await expect(trend.getByTestId('compliance-rate')).toHaveText(/^(\d+(\.\d)?%|N\/A)$/);
  await expect(trend.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
  await trend.getByRole('button', { name: '90 days' }).click();
  await expect(trend.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(trend.getByRole('img', { name: /^Vendors by status from / })).toBeVisible();

  const nonCompliant = page.getByRole('region', { name: 'Non-Compliant Vendors' });
  const row = nonCompliant.getByRole('table', { name: 'Non-compliant vendors' }).getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Missing');
  await expect(row.getByRole('link', { name })).toHaveAttribute('href', `/vendors/${id}`);
  await expectNoA11yViolations(page, '/reports, Professional');

  const downloading = page.waitForEvent('download');
  await nonCompliant.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  expect(await readFile((await download.path())!, 'utf8')).toContain(name);
  // The same report as an Excel workbook (a ZIP: "PK").
  const downloadingExcel = page.waitForEvent('download');
  await nonCompliant.getByRole('button', { name: 'Export Excel' }).click();
  const workbook = await downloadingExcel;
  expect(workbook.suggestedFilename()).toMatch(/\.xlsx$/);
  expect((await readFile((await workbook.path())!)).subarray(0, 2).toString('latin1')).toBe('PK');

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('sidebar')).toBeHidden();
  await expect(page.getByTestId('bottom-bar')).toBeHidden();
  // Role queries skip hidden elements unless told: count them first, so 'hidden' cannot mean 'absent'.
  const print = page.getByRole('button', { name: 'Print', includeHidden: true });
  await expect(print).toHaveCount(1);
  await expect(print).toBeHidden();
  const exports = page.getByRole('button', { name: 'Export CSV', includeHidden: true });
  await expect(exports).toHaveCount(4);
  for (const button of await exports.all()) await expect(button).toBeHidden();
  const excelExports = page.getByRole('button', { name: 'Export Excel', includeHidden: true });
  await expect(excelExports).toHaveCount(4);
  for (const button of await excelExports.all()) await expect(button).toBeHidden();
  const period = trend.getByRole('button', { name: '90 days', includeHidden: true });
  await expect(period).toHaveCount(1);
  await expect(period).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(trend.getByRole('img', { name: /^Vendors by status from / })).toBeVisible();
  await expect(row).toBeVisible();
  const mainLeft = await page
    .getByRole('main')
    .evaluate((main) => main.getBoundingClientRect().left + parseFloat(getComputedStyle(main).paddingLeft));
  expect(mainLeft).toBe(0);

  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();

  // A phone: the page fits its width, and Reports is in the slide-out menu.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(trend.getByRole('img', { name: /^Vendors by status from / })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByTestId('mobile-topbar').getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByTestId('mobile-menu').getByRole('link', { name: 'Reports' })).toHaveAttribute('href', '/reports');
  await expectNoA11yViolations(page, '/reports, phone menu open');
  expect(problems).toEqual([]);
});

test("a Free account sees what the reports are, the server's sentence and Upgrade Now", async ({ page }) => {
  await registerViaUi(page, uniqueAccount('e2e-reports-free'));
  await page.goto('/reports');
  await expect(page.getByRole('heading', { name: 'Reports are part of the Professional plan' })).toBeVisible();
  await expect(page.getByTestId('plan-required-message')).toHaveText(/\w+/);
  for (const name of ['Compliance Trend', 'Upcoming Expirations', 'Non-Compliant Vendors', 'Vendor Responsiveness']) {
    await expect(page.getByRole('heading', { level: 3, name })).toBeVisible();
  }
  await expect(page.getByRole('main').getByRole('button', { name: 'Upgrade Now' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export Excel' })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectNoA11yViolations(page, '/reports, Free');
});
