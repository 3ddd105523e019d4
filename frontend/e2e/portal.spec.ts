import { expect, test, type Browser } from '@playwright/test';
import {
  addVendorViaUi,
  expectNoA11yViolations,
  isoDateFromToday,
  pdfFile,
  registerViaUi,
  uniqueAccount,
  uniqueName,
} from './helpers';

const GL = 'Certificate of Insurance (General Liability)';

/** A vendor's phone: 390px wide, touch, no session. */
async function phone(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  return { context, page: await context.newPage() };
}

async function horizontalOverflow(page: import('@playwright/test').Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test('a vendor uploads every requested document from a 390px phone and sees the completion dialog', async ({ page, browser }) => {
  const client = uniqueAccount('e2e-portal');
  await registerViaUi(page, client);
  const vendorName = uniqueName('Bright Electric');
  await addVendorViaUi(page, { name: vendorName, email: 'office@bright.example.com', keep: ['W-9 Form', 'COI - General'] });
  const companyKey = await page.getByTestId('company-key').inputValue();
  expect(companyKey).toMatch(/^[A-Za-z0-9]{8}$/);

  const { context, page: vendor } = await phone(browser);
  await vendor.goto('/vendor-upload');
  await expect(vendor.getByTestId('sidebar')).toHaveCount(0);
  await expect(vendor.getByLabel('Company Key')).toBeVisible();
  await expectNoA11yViolations(vendor, '/vendor-upload, phone');
  await vendor.getByLabel('Company Key').fill(companyKey);
  await vendor.getByRole('button', { name: 'Verify Company Key' }).click();

  await expect(vendor.getByTestId('portal-vendor-name')).toHaveText(vendorName);
  await expect(vendor.getByTestId('portal-client-name')).toHaveText(client.name);
  await expect(vendor.getByText('0 of 2 uploaded')).toBeVisible();
  expect(await horizontalOverflow(vendor)).toBeLessThanOrEqual(0);
  await expectNoA11yViolations(vendor, '/vendor-upload, documents step, phone');

  const w9 = vendor.getByRole('form', { name: 'Upload W-9 Form' });
  await w9.getByLabel('Document File').setInputFiles(pdfFile('w9.pdf'));
  await w9.getByRole('button', { name: 'Upload' }).click();
  await expect(vendor.getByRole('button', { name: /W-9 Form/ })).toContainText('Uploaded');
  await expect(vendor.getByText('1 of 2 uploaded')).toBeVisible();

  await vendor.getByRole('button', { name: new RegExp(GL.replace(/[()]/g, '\\$&')) }).click();
  const gl = vendor.getByRole('form', { name: `Upload ${GL}` });
  await gl.getByLabel('Document File').setInputFiles(pdfFile('gl.pdf'));
  await gl.getByRole('button', { name: 'Upload' }).click();
  await expect(gl.getByText(`Expiration date is required for ${GL}`)).toBeVisible();
  await expectNoA11yViolations(vendor, '/vendor-upload, a missing expiration date, phone');
  await gl.getByLabel('Expiration Date*').fill(isoDateFromToday(200));
  await gl.getByLabel('Notes').fill('Policy GL-778');
  await gl.getByRole('button', { name: 'Upload' }).click();

  const dialog = vendor.getByRole('dialog', { name: 'All documents uploaded' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(client.name);
  expect(await horizontalOverflow(vendor)).toBeLessThanOrEqual(0);
  await expectNoA11yViolations(vendor, 'All documents uploaded dialog, phone');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(vendor.getByLabel('Company Key')).toHaveValue('');
  await context.close();

  // The client sees both documents on the vendor page, sent through the portal.
  await page.reload();
  const documents = page.getByRole('table', { name: 'Vendor documents' });
  await expect(documents.getByRole('row').filter({ hasText: 'w9.pdf' })).toContainText('W9 Form');
  await expect(documents.getByRole('row').filter({ hasText: 'gl.pdf' })).toContainText('General Liability');
});

test("a wrong company key shows the 'Invalid Company Key' toast", async ({ browser }) => {
  const { context, page } = await phone(browser);
  await page.goto('/vendor-upload');
  await page.getByRole('button', { name: 'Verify Company Key' }).click();
  await expect(page.getByText('Company key is required')).toBeVisible();
  await expectNoA11yViolations(page, '/vendor-upload, no key, phone');

  await page.getByLabel('Company Key').fill('NOPE0000');
  await page.getByRole('button', { name: 'Verify Company Key' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Invalid Company Key' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('No vendor was found for this company key.');
  await expectNoA11yViolations(page, '/vendor-upload, with the Invalid Company Key toast, phone');
  await expect(page.getByLabel('Company Key')).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await context.close();
});
