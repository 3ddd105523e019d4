import { expect, test, type Page } from '@playwright/test';
import {
  addVendorViaUi,
  expectNoA11yViolations,
  isoDateFromToday,
  pdfFile,
  registerViaUi,
  uniqueAccount,
  uniqueName,
} from './helpers';

/** Uploads through the dialog; with `a11y`, axe checks the dialog and its open listbox on the way. */
async function uploadGeneralLiability(page: Page, fileName: string, expirationDate: string, { a11y = false } = {}) {
  await page.getByRole('button', { name: 'Upload Document' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Document' });
  await expect(dialog).toBeVisible();
  if (a11y) await expectNoA11yViolations(page, 'Upload Document dialog');
  await dialog.getByRole('button', { name: /Document Type/ }).click();
  if (a11y) {
    await expect(page.getByRole('listbox')).toBeVisible();
    await expectNoA11yViolations(page, 'Upload Document dialog, Document Type open');
  }
  await page.getByRole('option', { name: 'Certificate of Insurance' }).click();
  await dialog.getByRole('button', { name: /Insurance Type/ }).click();
  await page.getByRole('option', { name: 'General Liability' }).click();
  await dialog.getByLabel('Expiration Date').fill(expirationDate);
  await dialog.getByLabel('File').setInputFiles(pdfFile(fileName));
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Document uploaded' })).toBeVisible();
  await expect(dialog).toBeHidden();
}

test('a COI expiring in 10 days shows as Expiring Soon with three reminders; a renewal makes it current and keeps history', async ({
  page,
}) => {
  await registerViaUi(page, uniqueAccount('e2e-docs'));
  const vendorName = uniqueName('Riverside Plumbing');
  const vendorId = await addVendorViaUi(page, { name: vendorName, email: 'office@riverside.example.com' });

  await expectNoA11yViolations(page, '/vendors/{id}, no documents');
  await uploadGeneralLiability(page, 'gl-2025.pdf', isoDateFromToday(10), { a11y: true });
  const documents = page.getByRole('table', { name: 'Vendor documents' });
  await expect(documents.getByRole('row').filter({ hasText: 'gl-2025.pdf' })).toContainText('Expiring Soon');
  await expectNoA11yViolations(page, '/vendors/{id}, one document, with the toast');

  await page.goto('/dashboard');
  const dashboardRow = page
    .getByRole('table', { name: 'Vendor Compliance Status' })
    .getByRole('row')
    .filter({ hasText: vendorName });
  await expect(dashboardRow.locator('[data-slot="coi_general_liability"]')).toHaveAttribute('data-status', 'expiring_soon');
  await expect(dashboardRow.getByText('COI - General: Expiring Soon')).toBeAttached();
  await expect(dashboardRow.getByText('W-9 Form: Missing')).toBeAttached();
  await expectNoA11yViolations(page, '/dashboard, one vendor');

  await page.goto('/reminders');
  const reminders = page.getByRole('table', { name: 'Reminders' }).getByRole('row').filter({ hasText: vendorName });
  await expect(reminders).toHaveCount(3);
  for (const row of await reminders.all()) await expect(row).toContainText('Pending');
  await expectNoA11yViolations(page);

  await page.goto(`/vendors/${vendorId}`);
  await uploadGeneralLiability(page, 'gl-2026.pdf', isoDateFromToday(365));
  const current = documents.getByRole('row').filter({ hasText: 'gl-2026.pdf' });
  await expect(current).toContainText('Current');
  await expect(current).toContainText('Version 2');
  await expect(documents.getByRole('row').filter({ hasText: 'gl-2025.pdf' })).toHaveCount(0);
  const history = page.getByRole('list', { name: 'Version history' });
  await expect(history.getByRole('listitem').filter({ hasText: 'gl-2025.pdf' })).toContainText('Version 1');
  await expect(history).toContainText('Replaced by version 2');
  await expectNoA11yViolations(page, '/vendors/{id}, with version history');

  await page.goto('/dashboard');
  await expect(dashboardRow.locator('[data-slot="coi_general_liability"]')).toHaveAttribute('data-status', 'current');
});
