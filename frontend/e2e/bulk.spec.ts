import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  createVendorViaApi,
  expectNoA11yViolations,
  pdfFile,
  registerViaUi,
  storedToken,
  uniqueAccount,
  uniqueName,
} from './helpers';

/**
 * Bulk operations and the CSV import against the real server. A new account is Free; the tests
 * that need Professional pay through the Stripe-shaped server of the tests (see billing.spec.ts).
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
  const token = await storedToken(page);
  await expect
    .poll(async () => {
      const status = await page.request.get('/api/payment-status', { headers: { Authorization: `Bearer ${token}` } });
      return ((await status.json()) as { plan: string }).plan;
    })
    .toBe('professional');
}

async function uploadViaApi(page: Page, vendorId: string, fileName: string) {
  const token = await storedToken(page);
  const response = await page.request.post(`/api/vendors/${vendorId}/documents`, {
    headers: { Authorization: `Bearer ${token}` },
    // 'other' never replaces an earlier document: all three stay current.
    multipart: { documentType: 'other', file: pdfFile(fileName) },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test('select three documents and download them as one ZIP', async ({ page, request }) => {
  await registerViaUi(page, uniqueAccount('e2e-zip'));
  await becomeProfessional(page, request);
  const vendorId = await createVendorViaApi(page, { name: uniqueName('Zip Vendor') });
  const names = ['zip-one.pdf', 'zip-two.pdf', 'zip-three.pdf'];
  for (const name of names) await uploadViaApi(page, vendorId, name);

  await page.goto('/documents');
  const table = page.getByRole('table', { name: 'Documents' });
  for (const name of names) {
    await table.getByRole('row').filter({ hasText: name }).getByRole('checkbox').check();
  }
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar).toContainText('3 selected');
  await expectNoA11yViolations(page, '/documents, three selected');

  const downloading = page.waitForEvent('download');
  await bar.getByRole('button', { name: 'Download ZIP' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  await expect(page.getByRole('status').filter({ hasText: 'Download started' })).toBeVisible();
});

test('import a CSV of 10 vendors with 2 bad rows: 8 are created', async ({ page, request }) => {
  await registerViaUi(page, uniqueAccount('e2e-import'));
  // Free allows 2 vendors; Professional 25.
  await becomeProfessional(page, request);
  const stamp = Math.random().toString(36).slice(2, 8);
  const good = Array.from(
    { length: 8 },
    (_, i) => `Imported Vendor ${i + 1} ${stamp},vendor${i + 1}-${stamp}@example.com,plumbing`,
  );
  const csv = [
    'name,email,serviceType',
    ...good.slice(0, 4),
    `Bad Email Vendor ${stamp},not-an-email,plumbing`,
    ...good.slice(4),
    `,nameless-${stamp}@example.com,plumbing`,
  ].join('\n');

  await page.goto('/vendors');
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Vendors' });
  await dialog.getByLabel('CSV file').setInputFiles({ name: 'vendors.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

  const preview = dialog.getByRole('table', { name: 'Import preview' });
  await expect(preview.getByRole('row')).toHaveCount(11);
  await expect(dialog.getByText('8 of 10 rows will be created.')).toBeVisible();
  await expect(preview.getByRole('row').filter({ hasText: 'not-an-email' })).not.toContainText('Will be created');
  await expect(preview.getByRole('row').filter({ hasText: `nameless-${stamp}@example.com` })).not.toContainText(
    'Will be created',
  );
  await expectNoA11yViolations(page, 'Import Vendors dialog, with the preview');

  await dialog.getByRole('button', { name: 'Import 8 vendors' }).click();
  await expect(page.getByRole('status').filter({ hasText: '8 vendors imported' })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Showing 1 to 5 of 8 entries')).toBeVisible();
  await expectNoA11yViolations(page, '/vendors, eight vendors, with the toast');

  // The list pages, sorts and searches on the server (docs/product.md, "Lists"): each view asks for its 5 rows.
  const table = page.getByRole('table', { name: 'Vendors' });
  const asked = (params: Record<string, string>) =>
    page.waitForResponse((response) => {
      const url = new URL(response.url());
      return (
        url.pathname === '/api/vendors' &&
        response.ok() &&
        Object.entries({ limit: '5', ...params }).every(([key, value]) => url.searchParams.get(key) === value)
      );
    });
  let answer = asked({ offset: '5' });
  await page.getByRole('button', { name: 'Next' }).click();
  expect((await answer).headers()['x-total-count']).toBe('8');
  await expect(page.getByText('Showing 6 to 8 of 8 entries')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(4);

  answer = asked({ offset: '0', sort: '-name' });
  await page.getByRole('button', { name: 'Vendor', exact: true }).click();
  await page.getByRole('button', { name: 'Vendor', exact: true }).click();
  await answer;
  await expect(table.getByRole('row').nth(1)).toContainText(`Imported Vendor 8 ${stamp}`);

  answer = asked({ offset: '0', q: `Vendor 3 ${stamp}` });
  await page.getByPlaceholder('Search vendors...').fill(`Vendor 3 ${stamp}`);
  await answer;
  await expect(page.getByText('Showing 1 to 1 of 1 entries')).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toContainText(`Imported Vendor 3 ${stamp}`);
});

/** The vendor lists QuickBooks Online and Xero save, byte for byte as those programs write them. */
const accountingFiles = [
  {
    program: 'QuickBooks Online (Vendor Contact List, title rows and a footer)',
    nameColumn: 'Vendor',
    file: (names: string[], stamp: string) =>
      Buffer.from(
        [
          '"Craig\'s Design and Landscaping Services"',
          '"Vendor Contact List"',
          '',
          '"Vendor","Phone Numbers","Email","Full Name","Billing Address","Account #"',
          ...names.map(
            (name, i) =>
              `"${name}","(650) 555-991${i}","qb${i}-${stamp}@example.com","Nick Brosnahan","P.O. Box 5, Middlefield, CA  94482","76534${i}"`,
          ),
          '',
          '"Friday, Nov 27, 2026 06:22:54 AM GMT-8"',
          '',
        ].join('\r\n'),
        'utf8',
      ),
  },
  {
    program: 'Xero (Contacts.csv, UTF-8 with a byte-order mark)',
    nameColumn: '*ContactName',
    file: (names: string[], stamp: string) => {
      const header =
        '*ContactName,AccountNumber,EmailAddress,FirstName,LastName,POAttentionTo,POAddressLine1,POAddressLine2,POAddressLine3,POAddressLine4,POCity,PORegion,POPostalCode,POCountry,SAAttentionTo,SAAddressLine1,SAAddressLine2,SAAddressLine3,SAAddressLine4,SACity,SARegion,SAPostalCode,SACountry,PhoneNumber,FaxNumber,MobileNumber';
      const rows = names.map((name, i) => {
        const cells = Array<string>(26).fill('');
        cells[0] = name;
        cells[2] = `xero${i}-${stamp}@example.com`;
        cells[6] = '1 Queen St';
        cells[10] = 'Boston';
        cells[11] = 'MA';
        cells[12] = '02134';
        cells[23] = '617 555 0100';
        return cells.join(',');
      });
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([header, ...rows, ''].join('\r\n'), 'utf8')]);
    },
  },
];

for (const { program, nameColumn, file } of accountingFiles) {
  test(`import ${program}: the columns are recognised and two vendors imported`, async ({ page }) => {
    await registerViaUi(page, uniqueAccount('e2e-import-accounting'));
    const stamp = Math.random().toString(36).slice(2, 8);
    const names = [`Brosnahan Insurance ${stamp}`, `Cal Telephone ${stamp}`];
    await page.goto('/vendors');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Vendors' });
    await dialog.getByLabel('CSV file').setInputFiles({ name: 'vendors.csv', mimeType: 'text/csv', buffer: file(names, stamp) });
    const preview = dialog.getByRole('table', { name: 'Import preview' });
    await expect(preview.getByRole('row').filter({ hasText: names[0] })).toBeVisible();
    await expect(dialog.getByLabel(`Column ${nameColumn}`, { exact: true })).toHaveValue('name');
    await dialog.getByLabel('Service type for rows without one').selectOption({ label: 'Other' });
    await expect(preview.getByRole('row').filter({ hasText: 'Will be created' })).toHaveCount(2);
    await dialog.getByRole('button', { name: 'Import 2 vendors' }).click();
    await expect(page.getByRole('status').filter({ hasText: '2 vendors imported' })).toBeVisible();
    const token = await storedToken(page);
    const listed = await page.request.get('/api/vendors', { headers: { Authorization: `Bearer ${token}` } });
    const vendors = (await listed.json()) as { name: string; phone: string | null; zipCode: string | null }[];
    expect(vendors.map((v) => v.name).sort()).toEqual([...names].sort());
    expect(vendors.every((v) => v.phone !== null)).toBe(true);
  });
}

test('import a Windows-1252, semicolon file as Excel saves it: a column kept in Notes, a default service type', async ({
  page,
}) => {
  await registerViaUi(page, uniqueAccount('e2e-import-1252'));
  const stamp = Math.random().toString(36).slice(2, 8);
  const names = [`Café Olé Cleaning ${stamp}`, `Crème Brûlée Bakery ${stamp}`, `Señor Plumbing ${stamp}`];
  // Excel's classic "CSV (semicolon delimited)": Windows-1252, a title line above the header, no service type.
  const text = [
    'Vendor list',
    'Company;Email;Phone;Account No',
    ...names.map((name, i) => `${name};vendor${i + 1}-${stamp}@example.com;555-010${i};A-1${i}`),
  ].join('\r\n');
  const buffer = Buffer.from(text, 'latin1');
  expect(buffer.includes(Buffer.from('Café', 'utf8'))).toBe(false);

  await page.goto('/vendors');
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Vendors' });
  await dialog.getByLabel('CSV file').setInputFiles({ name: 'vendors-excel.csv', mimeType: 'text/csv', buffer });

  const preview = dialog.getByRole('table', { name: 'Import preview' });
  await expect(preview.getByRole('row').filter({ hasText: names[0] })).toBeVisible();
  await expect(dialog.getByText('semicolon', { exact: true })).toBeVisible();
  await expect(dialog.getByText(/^Header found on line 2/)).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Columns' })).toBeFocused();
  await expect(preview.getByRole('row').filter({ hasText: 'Service type is required' })).toHaveCount(3);
  await expect(dialog.getByText('Service types:')).toBeVisible();
  await expect(dialog.getByText('Ignored column:')).toBeVisible();

  const accountColumn = dialog.getByLabel('Column Account No', { exact: true });
  await expect(accountColumn).toHaveValue('ignore');
  await accountColumn.selectOption({ label: 'Keep in Notes' });
  await expect(dialog.getByText('Ignored column:')).toBeHidden();
  await dialog.getByLabel('Service type for rows without one').selectOption({ label: 'Cleaning' });
  // Free allows 2 vendors: the third good row is past the limit, said before anything is imported.
  await expect(preview.getByRole('row').filter({ hasText: 'Will be created' })).toHaveCount(2);
  const limit = dialog.getByTestId('import-limit');
  await expect(limit).toContainText('Your plan allows 2 vendors and you have 0: 2 more can be added.');
  await expect(limit).toContainText('3 rows could be imported, but only 2 fit: 1 row past the limit will not be imported.');
  await expectNoA11yViolations(page, 'Import Vendors dialog, a column mapped and a default chosen');

  await dialog.getByRole('button', { name: 'Import 2 vendors' }).click();
  await expect(page.getByRole('status').filter({ hasText: '2 vendors imported' })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('table', { name: 'Vendors' }).getByText(names[0]!)).toBeVisible();

  const token = await storedToken(page);
  const listed = await page.request.get('/api/vendors', { headers: { Authorization: `Bearer ${token}` } });
  const vendors = (await listed.json()) as { name: string; serviceType: string; notes: string | null }[];
  expect(vendors.map((v) => [v.name, v.serviceType, v.notes]).sort()).toEqual([
    [names[0], 'cleaning', 'Account No: A-10'],
    [names[1], 'cleaning', 'Account No: A-11'],
  ]);

  // The list back as an Excel workbook (a ZIP: "PK").
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Excel' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^vendors-\d{4}-\d{2}-\d{2}\.xlsx$/);
  expect((await readFile((await download.path())!)).subarray(0, 2).toString('latin1')).toBe('PK');
});

test('a Free account sees the bulk controls and gets the upgrade prompt', async ({ page }) => {
  await registerViaUi(page, uniqueAccount('e2e-bulk-free'));
  const name = uniqueName('Free Vendor');
  await createVendorViaApi(page, { name });

  await page.goto('/vendors');
  await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar).toContainText('1 selected');
  await expectNoA11yViolations(page, '/vendors, one selected');
  await bar.getByRole('button', { name: 'Send renewal requests' }).click();
  const prompt = page.getByRole('dialog', { name: 'Upgrade to Professional' });
  await expect(prompt).toContainText('Professional plan');
  await expect(prompt.getByRole('button', { name: 'Upgrade Now' })).toBeVisible();
  await expectNoA11yViolations(page, 'Upgrade to Professional dialog');
});
