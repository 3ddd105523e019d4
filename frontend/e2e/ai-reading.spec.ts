import { expect, test, type Page } from '@playwright/test';
import {
  createVendorViaApi,
  expectNoA11yViolations,
  isoDateFromToday,
  PHONE_VIEWPORT,
  pdfFile,
  registerViaUi,
  storedToken,
  textPdf,
  uniqueAccount,
  uniqueName,
} from './helpers';

/**
 * Certificates read with AI, end to end: the suite runs the server with an AI key pointed at
 * scripts/openai_fake.py, which answers a reading with what the certificate's text says. A COI
 * uploaded with a text layer is read on upload; its page shows what was read beside the form,
 * Accept all and Save keep it as read and confirmed, and the vendor's gaps follow from it.
 */

/** The owner's bearer token on `page`, as the header of an API call. */
async function auth(page: Page) {
  return { Authorization: `Bearer ${await storedToken(page)}` };
}

/** MM/DD/YYYY, as a certificate prints a YYYY-MM-DD date. */
function usDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}

/** 'Jan 1, 2027': a YYYY-MM-DD date as the page writes it. */
function shownDate(iso: string): string {
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** An ACORD 25's facts, one a line, in the layout the fake reads. */
function certificateText(insured: string, effective: string, expiration: string): string[] {
  return [
    `CERTIFICATE OF LIABILITY INSURANCE DATE (MM/DD/YYYY) ${usDate(effective)}`,
    'PRODUCER: Acme Insurance Agency',
    `INSURED: ${insured}`,
    'INSURER A: Hartford Fire Insurance Co NAIC # 19682',
    `COMMERCIAL GENERAL LIABILITY | INSR A | ADDL INSD Y | SUBR WVD Y | POLICY GL-4431-09 | EFF ${usDate(effective)} | EXP ${usDate(expiration)}`,
    'EACH OCCURRENCE $ 500,000',
    'GENERAL AGGREGATE $ 2,000,000',
    'PRODUCTS - COMP/OP AGG $ 2,000,000',
    'CERTIFICATE HOLDER: Vendorwatch Demo Co',
  ];
}

/** A set from the general contractor template, given to the vendor, through the API. */
async function giveGeneralContractorSet(page: Page, vendorId: string) {
  const headers = await auth(page);
  const templates = await page.request.get('/api/requirement-sets/templates', { headers });
  expect(templates.status(), await templates.text()).toBe(200);
  const template = ((await templates.json()) as { key: string; lines: unknown[] }[]).find((t) => t.key === 'general-contractor');
  expect(template, 'the general contractor template').toBeTruthy();
  const created = await page.request.post('/api/requirement-sets', {
    headers,
    data: { name: uniqueName('General contractor'), lines: template!.lines },
  });
  expect(created.status(), await created.text()).toBe(201);
  const setId = ((await created.json()) as { id: string }).id;
  const assigned = await page.request.post('/api/vendors/requirement-set', {
    headers,
    data: { ids: [vendorId], requirementSetId: setId },
  });
  expect(assigned.status(), await assigned.text()).toBe(200);
}

/** A general liability certificate for the vendor; returns its id. */
async function uploadCoi(page: Page, vendorId: string, file: ReturnType<typeof pdfFile>): Promise<string> {
  const response = await page.request.post(`/api/vendors/${vendorId}/documents`, {
    headers: await auth(page),
    multipart: { documentType: 'coi', coiType: 'general_liability', file },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

function coveragePanel(page: Page) {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: 'Certificate coverage' }) });
}

/** The flows below run at the desktop width of the config and again on a phone (as mobile.spec). */
const WIDTHS = [
  { name: 'desktop', use: {} },
  { name: 'phone', use: { viewport: PHONE_VIEWPORT, hasTouch: true, isMobile: true } },
] as const;

for (const width of WIDTHS) {
  test.describe(`at ${width.name} width`, () => {
    test.use(width.use);

    test('a certificate read on upload, accepted and saved, gives the vendor its gaps', async ({ page }) => {
      test.setTimeout(150_000);
      await registerViaUi(page, uniqueAccount('e2e-ai-reading'));
      const vendorName = uniqueName('Granite Builders');
      const vendorId = await createVendorViaApi(page, { name: vendorName });
      await giveGeneralContractorSet(page, vendorId);
      const effective = isoDateFromToday(-30);
      const expiration = isoDateFromToday(300);
      const docId = await uploadCoi(page, vendorId, textPdf('acord-25.pdf', certificateText(vendorName, effective, expiration)));

      await page.goto(`/view-document/${docId}`);
      const panel = coveragePanel(page);
      await expect(panel.getByText('Nothing saved yet')).toBeVisible();
      // Read on upload: the page polls until the reading is done (or finds it done).
      const acceptAll = panel.getByRole('button', { name: 'Accept all' });
      await expect(acceptAll).toBeVisible({ timeout: 60_000 });
      await expect(panel.getByText('Reading the certificate…')).toHaveCount(0);

      // What was read, with the reader's confidence in words; the line is not in the form yet.
      const read = panel.getByRole('group', { name: 'General liability, read but not in the form', exact: true });
      await expect(read.getByText('GL-4431-09')).toBeVisible();
      await expect(read.getByText('Hartford Fire Insurance Co')).toBeVisible();
      await expect(read.getByText('$500,000')).toBeVisible();
      await expect(read.getByText('High').first()).toBeVisible();
      await expect(
        panel.getByText(`This document has no expiration date: saving sets it to ${shownDate(expiration)}.`),
      ).toBeVisible();
      await expect(
        panel
          .getByTestId('suggestion')
          .filter({ hasText: shownDate(effective) })
          .first(),
      ).toBeVisible();
      if (width.name === 'phone') {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
      await expectNoA11yViolations(page, 'document page with what AI read');

      await acceptAll.click();
      await expect(page.getByRole('status').filter({ hasText: 'Every value read is in the form' })).toBeVisible();
      const line = panel.getByRole('group', { name: 'General liability', exact: true });
      await expect(line.getByRole('textbox', { name: 'Policy number' })).toHaveValue('GL-4431-09');
      await expect(line.getByRole('textbox', { name: 'Each occurrence' })).toHaveValue('$500,000');
      await expect(line.getByLabel('Expiration date')).toHaveValue(expiration);
      await expect(line.getByRole('checkbox', { name: 'Additional insured' })).toBeChecked();
      await expect(panel.getByLabel('Certificate date')).toHaveValue(effective);
      await expect(panel.getByRole('button', { name: /^Accept (?!all)/ })).toHaveCount(0);
      await panel.getByRole('button', { name: 'Save coverage' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Coverage saved' })).toBeVisible();
      await expect(panel.getByText('Saved. Source: Read from the certificate automatically and checked')).toBeVisible();
      await expect(page.getByText(`Expires ${shownDate(expiration)}`)).toBeVisible();

      await page.goto(`/vendors/${vendorId}`);
      const gaps = page.getByRole('list', { name: 'Gaps' });
      await expect(gaps.getByText('General liability each occurrence is $500,000; $1,000,000 is required.')).toBeVisible();
      await expect(gaps.getByText('No general liability on file.')).toHaveCount(0);
      await expect(gaps.getByText('Additional insured is not shown for general liability.')).toHaveCount(0);
      await expect(gaps.getByText(/^The certificate names/)).toHaveCount(0);
      await expect(gaps.getByText(/^General liability products/)).toHaveCount(0);
      await expect(gaps.getByText('No automobile liability on file.')).toBeVisible();
    });
  });
}

/**
 * A scan (no text layer) cannot be read without a model that reads images: the page says why,
 * and Read with AI asks again, with the same answer told in a toast; the form works by hand.
 */
test('a certificate without text says why it was not read, and can be asked again', async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, uniqueAccount('e2e-ai-scan'));
  const vendorId = await createVendorViaApi(page, { name: uniqueName('Scan Vendor') });
  const docId = await uploadCoi(page, vendorId, pdfFile('scan.pdf'));

  await page.goto(`/view-document/${docId}`);
  const panel = coveragePanel(page);
  await expect(panel.getByText(/This PDF has no text layer \(a scan\)/)).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Read with AI' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The certificate could not be read' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(panel.getByRole('button', { name: 'Read with AI' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Accept all' })).toHaveCount(0);
  await expectNoA11yViolations(page, 'document page with a reading unavailable');
});

/**
 * On the portal, from a phone: a COI uploaded with its text is read, the vendor sees what was
 * read, corrects the policy number and sends it; the client's reading shows the correction,
 * noted as the vendor's, for a person to accept.
 */
test('a vendor sees what was read of its certificate on the portal and corrects it', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, uniqueAccount('e2e-ai-portal'));
  const vendorName = uniqueName('Granite Builders');
  const key = await createVendorViaApi(page, { name: vendorName });
  const effective = isoDateFromToday(-30);
  const expiration = isoDateFromToday(335);

  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true });
  const vendor = await context.newPage();
  await vendor.goto('/vendor-upload');
  await vendor.getByLabel('Company Key').fill(key);
  await vendor.getByRole('button', { name: 'Verify Company Key' }).click();
  await expect(vendor.getByTestId('portal-vendor-name')).toHaveText(vendorName);
  const gl = 'Certificate of Insurance (General Liability)';
  await vendor.getByRole('button', { name: new RegExp(gl.replace(/[()]/g, '\\$&')) }).click();
  const upload = vendor.getByRole('form', { name: `Upload ${gl}` });
  await upload
    .getByLabel('Document File')
    .setInputFiles(textPdf('granite-coi.pdf', certificateText(vendorName, effective, expiration)));
  await upload.getByLabel('Expiration Date*').fill(expiration);
  await upload.getByRole('button', { name: 'Upload' }).click();

  const reading = vendor.getByRole('form', { name: 'Correct what we read' });
  await expect(reading).toBeVisible({ timeout: 30_000 });
  await expect(vendor.getByRole('heading', { name: 'What we read from your certificate' })).toBeVisible();
  const policy = reading.getByRole('textbox', { name: 'Policy number' });
  await expect(policy).toHaveValue('GL-4431-09');
  await expectNoA11yViolations(vendor, 'portal: what we read, phone');
  expect(await vendor.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await policy.fill('GL-4431-10');
  await reading.getByRole('button', { name: 'Send corrections' }).click();
  await expect(vendor.getByRole('status').filter({ hasText: 'Thanks, your corrections were sent' })).toBeVisible();
  await context.close();

  // The client's reading holds the vendor's correction, still for a person to accept.
  const headers = await auth(page);
  const documents = await page.request.get(`/api/vendors/${key}/documents`, { headers });
  expect(documents.status(), await documents.text()).toBe(200);
  const docs = (await documents.json()) as { id: string; fileName: string }[];
  const doc = docs.find((d) => d.fileName === 'granite-coi.pdf');
  expect(doc, 'the certificate uploaded through the portal').toBeTruthy();
  const read = await page.request.get(`/api/documents/${doc!.id}/extraction`, { headers });
  const body = (await read.json()) as { suggestion: { lines: { policyNumber: string }[] }; notes: string[] };
  expect(body.suggestion.lines[0]!.policyNumber).toBe('GL-4431-10');
  expect(body.notes).toContain('Corrected by the vendor through the portal.');
});
