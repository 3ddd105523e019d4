import { expect, test } from '@playwright/test';
import { createVendorViaApi, expectNoA11yViolations, registerViaUi, uniqueAccount, uniqueName } from './helpers';

test("deleting a vendor asks 'Are you sure?' and says 'Vendor deleted'", async ({ page }) => {
  await registerViaUi(page, uniqueAccount('e2e-delete'));
  const name = uniqueName('Northwind Cleaning');
  await createVendorViaApi(page, { name });

  await page.goto('/vendors');
  const table = page.getByRole('table', { name: 'Vendors' });
  await expect(table.getByRole('row').filter({ hasText: name })).toBeVisible();
  await expectNoA11yViolations(page);
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await expectNoA11yViolations(page, '/vendors, row menu open', { phone: false });
  await page.getByRole('menuitem', { name: 'Delete' }).click();

  const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    'This action cannot be undone. This will permanently delete the vendor and all associated documents.',
  );
  await expectNoA11yViolations(page, 'delete vendor dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole('row').filter({ hasText: name })).toBeVisible();

  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Delete' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Vendor deleted' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('The vendor has been successfully deleted.');
  await expect(page.getByText('No vendors found')).toBeVisible();
  await expectNoA11yViolations(page, '/vendors, empty, with the toast');
});

test('the Free plan stops at two vendors: Add New Vendor is disabled, and a stale form gets the 402 dialog', async ({ page }) => {
  await registerViaUi(page, uniqueAccount('e2e-limit'));
  await createVendorViaApi(page, { name: uniqueName('First Vendor') });

  // The form opens while there is still room; a second vendor arrives meanwhile (another tab).
  await page.goto('/vendors/new');
  const form = page.getByRole('form', { name: 'Add New Vendor' });
  await expect(form.getByRole('button', { name: 'Add Vendor' })).toBeEnabled();
  await expectNoA11yViolations(page);
  await createVendorViaApi(page, { name: uniqueName('Second Vendor') });

  await form.getByLabel('Vendor Name*').fill(uniqueName('Third Vendor'));
  await form.getByLabel('Contact Email*').fill('third@vendor.example.com');
  await form.getByRole('button', { name: 'Add Vendor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Free Account Limit Reached' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Free accounts are limited to 2 vendors maximum.');
  await expectNoA11yViolations(page, 'Free Account Limit Reached dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/vendors\/new$/);

  await page.goto('/dashboard');
  const add = page.getByRole('main').getByRole('link', { name: 'Add New Vendor' });
  await expect(add).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByRole('table', { name: 'Vendor Compliance Status' }).getByRole('row')).toHaveCount(3);
  await expectNoA11yViolations(page, '/dashboard, at the vendor limit');

  await page.goto('/vendors/new');
  await expect(page.getByText('Free account limit reached')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Add New Vendor' }).getByRole('button', { name: 'Add Vendor' })).toBeDisabled();
  await expectNoA11yViolations(page, '/vendors/new, at the vendor limit');
});
