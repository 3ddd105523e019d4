import { expect, test } from '@playwright/test';
import { createVendorViaApi, expectNoA11yViolations, registerViaUi, uniqueAccount, uniqueName } from './helpers';

/**
 * Requirements end to end against the real server: the owner starts a set from a template on the
 * Requirements page, gives it to a vendor on the vendor's form, and the vendor's page names the
 * gaps (no certificate yet: every line is missing); one is waived and withdrawn again.
 */
test('a set from a template, given to a vendor, gaps waived and withdrawn', async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, uniqueAccount('e2e-requirements'));
  const vendorName = uniqueName('Requirements Vendor');
  const vendorId = await createVendorViaApi(page, { name: vendorName });
  const setName = uniqueName('Low risk');

  await page.goto('/account/requirements');
  await expect(page.getByRole('heading', { level: 1, name: 'Requirements' })).toBeVisible();
  await page.getByRole('button', { name: 'New set' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /Start from/ }).click();
  await page.getByRole('option', { name: 'Low-risk supplier' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill(setName);
  await expectNoA11yViolations(page, 'new requirement set dialog');
  await dialog.getByRole('button', { name: 'Save set' }).click();
  await expect(page.getByText('Requirement set saved')).toBeVisible();
  const set = page.getByTestId('requirement-set').filter({ hasText: setName });
  await expect(set.getByText(/^General liability: \$1,000,000 each occurrence, \$2,000,000 general aggregate/)).toBeVisible();
  await expectNoA11yViolations(page, 'requirements page');

  await page.goto(`/vendors/${vendorId}/edit`);
  await page.getByRole('button', { name: /Requirement set/ }).click();
  await page.getByRole('option', { name: setName }).click();
  await page.getByRole('button', { name: 'Update Vendor' }).click();
  await expect(page).toHaveURL(new RegExp(`/vendors/${vendorId}$`));

  const gaps = page.getByRole('list', { name: 'Gaps' });
  await expect(gaps.getByText('No general liability on file.', { exact: false })).toBeVisible();
  await expectNoA11yViolations(page, 'vendor page with gaps');
  await gaps
    .getByRole('button', { name: /^Waive:/ })
    .first()
    .click();
  const waive = page.getByRole('dialog', { name: 'Waive this gap' });
  await waive.getByRole('textbox', { name: 'Reason' }).fill('Certificate requested');
  await waive.getByLabel('Waived until').fill('2099-12-31');
  await waive.getByRole('button', { name: 'Waive gap' }).click();
  await expect(page.getByText('Gap waived')).toBeVisible();
  await expect(gaps.getByText(/^Waived until Dec 31, 2099 by .*: Certificate requested$/)).toBeVisible();
  await expect(page.getByText('Meets requirements')).toBeVisible();
  await gaps.getByRole('button', { name: /^Withdraw the waiver/ }).click();
  await expect(page.getByText('Waiver withdrawn')).toBeVisible();
  await expect(page.getByText('Does not meet requirements')).toBeVisible();
});
