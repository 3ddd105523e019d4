import { expect, test, type Page } from '@playwright/test';
import {
  createVendorViaApi,
  expectNoA11yViolations,
  loginViaUi,
  pdfFile,
  registerViaUi,
  storedToken,
  uniqueAccount,
  uniqueName,
} from './helpers';

/**
 * axe on the pages and dialogs the other specs do not reach (each check runs at the desktop
 * width and a phone's; see expectNoA11yViolations). blog.spec.ts has no checks of its own: the
 * public blog, a post and the admin area are checked here.
 */

async function uploadViaApi(page: Page, vendorId: string, fileName: string): Promise<string> {
  const response = await page.request.post(`/api/vendors/${vendorId}/documents`, {
    headers: { Authorization: `Bearer ${await storedToken(page)}` },
    multipart: { documentType: 'other', file: pdfFile(fileName) },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

test('the public pages: password reset, the sample certificate, the blog, the portal at desktop width', async ({ page }) => {
  await page.goto('/forgot-password');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoA11yViolations(page);
  await page.getByLabel('Email').fill(`nobody-${Date.now()}@example.com`);
  await page.getByRole('button', { name: /Send/ }).click();
  await expect(page.getByText('If an account exists for that email', { exact: false })).toBeVisible();
  await expectNoA11yViolations(page, '/forgot-password, sent');

  await page.goto('/reset-password?token=not-a-real-token');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoA11yViolations(page, '/reset-password');

  await page.goto('/document-viewer?id=12');
  await expect(page.getByRole('heading', { name: 'Certificate of Liability Insurance' })).toBeVisible();
  await expectNoA11yViolations(page);

  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
  await page.getByRole('list', { name: 'Blog posts' }).or(page.getByText('No blog posts yet')).waitFor();
  await expectNoA11yViolations(page);
  await page.goto('/blog/no-such-post-anywhere');
  await expect(page.getByRole('heading', { name: 'Blog Post Not Found' })).toBeVisible();
  await expectNoA11yViolations(page, '/blog/{missing}');

  await page.goto('/vendor-upload');
  await expect(page.getByLabel('Company Key')).toBeVisible();
  await expectNoA11yViolations(page);
});

test('the signed-in pages and dialogs the other specs pass by', async ({ page }) => {
  await registerViaUi(page, uniqueAccount('e2e-a11y'));
  const name = uniqueName('Axe Landscaping');
  const vendorId = await createVendorViaApi(page, { name, requiredDocuments: ['w9', 'coi_general_liability'] });
  const documentId = await uploadViaApi(page, vendorId, 'axe-other.pdf');

  // The vendors list's status filter: a listbox on the page (its options in the main landmark).
  await page.goto('/vendors');
  await expect(page.getByRole('table', { name: 'Vendors' })).toContainText(name);
  await page.getByRole('button', { name: /All Statuses/ }).click();
  await expect(page.getByRole('listbox')).toBeVisible();
  await expectNoA11yViolations(page, '/vendors, status filter open');
  await page.keyboard.press('Escape');

  await page.goto(`/vendors/${vendorId}/edit`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoA11yViolations(page, '/vendors/{id}/edit');

  await page.goto(`/vendors/${vendorId}`);
  const documents = page.getByRole('table', { name: 'Vendor documents' });
  await expect(documents).toContainText('axe-other.pdf');
  await page.getByRole('button', { name: 'Bulk Upload' }).click();
  const bulk = page.getByRole('dialog');
  await expect(bulk).toBeVisible();
  await expectNoA11yViolations(page, 'Bulk Upload dialog');
  await page.keyboard.press('Escape');
  await expect(bulk).toBeHidden();

  await documents.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog');
  await expect(edit).toBeVisible();
  await expectNoA11yViolations(page, 'Edit Document dialog');
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();

  await documents.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
  await expect(confirm).toBeVisible();
  await expectNoA11yViolations(page, 'delete document dialog');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();

  await page.goto('/documents');
  await expect(page.getByRole('table', { name: 'Documents' })).toContainText('axe-other.pdf');
  await expectNoA11yViolations(page);

  await page.goto(`/view-document/${documentId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'axe-other.pdf' })).toBeVisible();
  // The PDF comes from a signed link ending with its name, not a blob: URL, so the browser's PDF
  // viewer shows the name; the link works without the token (issue 29).
  const frame = page.locator('iframe[title="axe-other.pdf"]');
  await expect(frame).toHaveAttribute('src', /^\/api\/documents\/[^/]+\/file\/\d+\/[0-9a-f]{64}\/axe-other\.pdf$/);
  const pdf = await page.request.get((await frame.getAttribute('src')) ?? '');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  await expectNoA11yViolations(page, '/view-document/{id}');
  await page.goto('/view-document/99999999');
  await expect(page.getByRole('heading', { name: 'Document not found' })).toBeVisible();
  await expectNoA11yViolations(page, '/view-document/{missing}');
  await page.goto('/vendors/NOSUCHID');
  await expect(page.getByRole('heading', { name: 'Vendor not found' })).toBeVisible();
  await expectNoA11yViolations(page, '/vendors/{missing}');

  await page.goto('/activity');
  await expect(page.getByRole('heading', { level: 1, name: 'Activity Log' })).toBeVisible();
  await expectNoA11yViolations(page);

  // The thank-you page leaves for the dashboard 2 s after the server answers: the answer waits
  // until the page has been checked.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/upgrade-to-professional', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/payment-success?session_id=cs_test_not_paid&upgrade_success=true');
  await expect(page.getByRole('heading', { name: 'Thank you for your payment!' })).toBeVisible();
  await expectNoA11yViolations(page, '/payment-success');
  release();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
});

test('the vendor portal at desktop width: both steps and the completion dialog', async ({ page, browser }) => {
  await registerViaUi(page, uniqueAccount('e2e-a11y-portal'));
  const companyKey = await createVendorViaApi(page, { name: uniqueName('Axe Portal Vendor'), requiredDocuments: ['w9'] });

  const context = await browser.newContext();
  const vendor = await context.newPage();
  await vendor.goto('/vendor-upload');
  await vendor.getByLabel('Company Key').fill(companyKey);
  await vendor.getByRole('button', { name: 'Verify Company Key' }).click();
  const w9 = vendor.getByRole('form', { name: 'Upload W-9 Form' });
  await expect(w9).toBeVisible();
  await expectNoA11yViolations(vendor, '/vendor-upload, documents step');
  await w9.getByLabel('Document File').setInputFiles(pdfFile('axe-w9.pdf'));
  await w9.getByRole('button', { name: 'Upload' }).click();
  await expect(vendor.getByRole('dialog', { name: 'All documents uploaded' })).toBeVisible();
  await expectNoA11yViolations(vendor, '/vendor-upload, completion dialog');
  await context.close();
});

const adminEmail = process.env.E2E_ADMIN_EMAIL;
const adminPassword = process.env.E2E_ADMIN_PASSWORD;

test('the blog with a post, and the admin area', async ({ page }) => {
  test.skip(!adminEmail || !adminPassword, 'E2E_ADMIN_EMAIL and E2E_ADMIN_PASSWORD are not set');
  await loginViaUi(page, { email: adminEmail ?? '', password: adminPassword ?? '' });
  await expect(page.getByRole('status').filter({ hasText: 'Login successful' })).toBeVisible();
  const title = uniqueName('Accessible certificates');
  const created = await page.request.post('/api/admin/blog-posts', {
    headers: { Authorization: `Bearer ${await storedToken(page)}` },
    data: {
      title,
      content: '## Why it matters\n\nA lapsed COI leaves you **uninsured**.\n\n### Next steps\n\n- Ask for the renewal',
      tags: ['insurance'],
      published: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const post = (await created.json()) as { id: string; slug: string };

  try {
    await page.goto('/blog');
    await expect(page.getByRole('list', { name: 'Blog posts' })).toBeVisible();
    await expectNoA11yViolations(page, '/blog with posts');
    await page.goto(`/blog/${encodeURIComponent(post.slug)}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expectNoA11yViolations(page, '/blog/{slug}');

    await page.goto('/admin');
    const row = page.getByRole('listitem', { name: title });
    await expect(row).toBeVisible();
    await expectNoA11yViolations(page);
    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await expect(confirm).toBeVisible();
    await expectNoA11yViolations(page, '/admin, delete dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();

    await page.goto(`/admin/blog/edit/${encodeURIComponent(post.slug)}`);
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);
    await expectNoA11yViolations(page, '/admin/blog/edit/{slug}');
    await page.getByRole('tab', { name: 'Preview' }).click();
    await expect(page.getByTestId('blog-preview')).toBeVisible();
    await expectNoA11yViolations(page, '/admin/blog/edit/{slug}, preview');
  } finally {
    const deleted = await page.request.delete(`/api/admin/blog-posts/${encodeURIComponent(post.id)}`, {
      headers: { Authorization: `Bearer ${await storedToken(page)}` },
    });
    expect(deleted.ok(), await deleted.text()).toBe(true);
  }
});
