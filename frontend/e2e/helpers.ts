import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { test } from '@playwright/test';

export type Account = { name: string; email: string; password: string };

/** A fresh account per run, so runs never collide with earlier data. */
export function uniqueAccount(prefix = 'e2e'): Account {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return { name: 'Erin Tester', email: `${prefix}-${stamp}@example.com`, password: 'correct-horse-9' };
}

export async function registerViaUi(page: Page, account: Account) {
  await page.goto('/register');
  await page.getByLabel('Full Name').fill(account.name);
  await page.getByLabel('Email address').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}

export async function registerViaApi(request: APIRequestContext, account: Account) {
  const response = await request.post('/api/auth/register', {
    data: { name: account.name, email: account.email, password: account.password, company: '' },
  });
  expect(response.status(), await response.text()).toBe(201);
}

export async function loginViaUi(page: Page, account: Pick<Account, 'email' | 'password'>) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Collects uncaught page errors and CSP violations; a test asserts the list stays empty. */
export function watchForPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
      problems.push(`csp: ${message.text()}`);
    }
  });
  return problems;
}

/** A tiny but valid PDF: the server checks the content (magic bytes), not the name. */
export function pdfFile(name: string) {
  const body = [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
    '',
  ].join('\n');
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(body, 'latin1') };
}

/**
 * A one-page PDF 1.4 whose text layer holds `lines`, one per line, as a certificate's text would
 * read (Helvetica, one `Tj` then one `'` per line, so lopdf's extract_text gives a line each),
 * with a correct cross-reference table.
 */
export function textPdf(name: string, lines: readonly string[]) {
  const text = (line: string) => `(${line.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const content = [
    'BT',
    '/F1 7 Tf',
    '10 TL',
    '36 800 Td',
    ...lines.map((line, i) => `${text(line)} ${i === 0 ? 'Tj' : "'"}`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(pdf, 'latin1') };
}

/** YYYY-MM-DD, `days` from today in UTC (the server's calendar). */
export function isoDateFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A name no other run will have used. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
}

/**
 * Opens a listbox by its button and chooses an option, then waits for the list to close.
 * Once, at phone width, the list stayed open over the dialog's buttons after the option's
 * click (CI, requirements.spec.ts); the choice is made again until the list has closed and
 * the button shows it.
 */
export async function chooseOption(page: Page, button: Locator, option: string) {
  const list = page.getByRole('listbox');
  await expect(async () => {
    if (!(await list.isVisible())) await button.click({ timeout: 2_000 });
    await page.getByRole('option', { name: option }).click({ timeout: 2_000 });
    await expect(list).toBeHidden({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(button).toContainText(option);
}

/** The bearer token the app stored after sign-in. */
export async function storedToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token, 'a signed-in session stores its token').toBeTruthy();
  return token!;
}

export type VendorSeed = { name: string; email?: string; requiredDocuments?: string[] };

/** Creates a vendor through the API with the page's session; returns its id (the company key). */
export async function createVendorViaApi(page: Page, vendor: VendorSeed): Promise<string> {
  const token = await storedToken(page);
  const response = await page.request.post('/api/vendors', {
    headers: { Authorization: `Bearer ${token}` },
    data: { serviceType: 'plumbing', email: 'office@vendor.example.com', ...vendor },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Fills and submits Add New Vendor; keeps only the given required document slots checked. */
export async function addVendorViaUi(page: Page, vendor: { name: string; email: string; keep?: string[] }) {
  await page.goto('/vendors/new');
  const form = page.getByRole('form', { name: 'Add New Vendor' });
  await form.getByLabel('Vendor Name*').fill(vendor.name);
  await form.getByLabel('Contact Email*').fill(vendor.email);
  if (vendor.keep) {
    const slots = form.getByRole('group', { name: 'Required Documents' }).getByRole('checkbox');
    for (const box of await slots.all()) {
      const label = (await box.locator('xpath=..').innerText()).trim();
      await box.setChecked(vendor.keep.includes(label));
    }
  }
  await form.getByRole('button', { name: 'Add Vendor' }).click();
  await expect(page).toHaveURL(/\/vendors\/[A-Za-z0-9]{8}$/);
  await expect(page.getByRole('heading', { level: 1, name: vendor.name })).toBeVisible();
  return page.url().split('/').pop()!;
}

/**
 * The admin role cannot be granted through the UI (only by an operator task, docs/decisions.md,
 * 4). The test command seeds an admin and passes its credentials in
 * E2E_ADMIN_EMAIL and E2E_ADMIN_PASSWORD; without them the admin flows are skipped.
 */
export const adminEmail = process.env.E2E_ADMIN_EMAIL;
export const adminPassword = process.env.E2E_ADMIN_PASSWORD;

export async function loginAsAdmin(page: Page) {
  await loginViaUi(page, { email: adminEmail ?? '', password: adminPassword ?? '' });
  // Signing in lands on the landing page, signed in.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: 'Login successful' })).toBeVisible();
}

/** The public list, page by page, until the title shows or the pages run out. */
export async function blogListHas(page: Page, title: string): Promise<boolean> {
  await page.goto('/blog');
  for (;;) {
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    await page.getByRole('list', { name: 'Blog posts' }).or(page.getByText('No blog posts yet')).waitFor();
    if (await page.getByRole('link', { name: title, exact: true }).count()) return true;
    const next = page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Next' });
    if (!(await next.count()) || (await next.isDisabled())) return false;
    await next.click();
  }
}

/** A phone's viewport (the width the mobile and portal specs use). */
export const PHONE_VIEWPORT = { width: 390, height: 844 };

/** The WCAG 2.0 and 2.1 A and AA rules axe runs on every page and dialog. */
const A11Y_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Best-practice rules of moderate impact that fail the checks too. */
const A11Y_MODERATE_RULES = ['heading-order', 'region'];
const A11Y_FAILING_IMPACTS = ['serious', 'critical'];

/** Waits until no finite CSS animation or transition runs (dialogs fading in, toasts sliding). */
async function animationsSettled(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
}

async function a11yViolationsNow(page: Page, where: string): Promise<string[]> {
  await animationsSettled(page);
  // A toast that appears while axe runs (a request answered meanwhile) would be read mid-fade,
  // its text still pale: with reduced motion it appears at once, as the app's CSS has it.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  let results;
  try {
    results = await new AxeBuilder({ page })
      .options({ rules: Object.fromEntries(A11Y_MODERATE_RULES.map((rule) => [rule, { enabled: true }])) })
      .withTags(A11Y_TAGS)
      // axe.run in the page itself: the default opens a blank page per run to merge the results
      // of frames, which the app has none of (cross-origin ones) that this could miss.
      .setLegacyMode()
      .analyze();
  } finally {
    await page.emulateMedia({ reducedMotion: null });
  }
  return results.violations
    .filter((v) => A11Y_FAILING_IMPACTS.includes(v.impact ?? '') || A11Y_MODERATE_RULES.includes(v.id))
    .map((v) => {
      const nodes = v.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`);
      return [`${where}: ${v.id} (${v.impact}) ${v.help}`, ...nodes].join('\n');
    });
}

/**
 * Runs axe on the page as it is (an open dialog included) and fails on any violation of
 * serious or critical impact, or of heading-order or region. Checks the current width and a
 * phone's (unless `phone: false` or the page is already that narrow), then restores the viewport.
 */
export async function expectNoA11yViolations(page: Page, context?: string, options: { phone?: boolean } = {}) {
  // Each check takes a few seconds (two runs of axe): the test gets that time on top of its own.
  const info = test.info();
  if (info.timeout > 0) info.setTimeout(info.timeout + 15_000);
  const where = context ?? new URL(page.url()).pathname;
  const original = page.viewportSize();
  const failures = await a11yViolationsNow(page, `${where} at ${original?.width ?? '?'}px`);
  if (options.phone !== false && original && original.width > PHONE_VIEWPORT.width) {
    await page.setViewportSize(PHONE_VIEWPORT);
    try {
      failures.push(...(await a11yViolationsNow(page, `${where} at ${PHONE_VIEWPORT.width}px`)));
    } finally {
      await page.setViewportSize(original);
    }
  }
  expect(failures, `accessibility violations:\n${failures.join('\n')}`).toEqual([]);
}
