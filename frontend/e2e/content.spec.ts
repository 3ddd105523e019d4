import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  adminEmail,
  adminPassword,
  blogListHas,
  expectNoA11yViolations,
  loginAsAdmin,
  uniqueName,
  watchForPageProblems,
} from './helpers';

/**
 * The content engine against the real server. The test command configures AI against a local
 * OpenAI-shaped fake server, so content-stats says aiConfigured there; without admin
 * credentials the flows are skipped (see helpers.ts).
 */

/** The Keywords stat card of the admin page. */
const keywordsCard = (page: Page) => page.getByTestId('stat-card').filter({ hasText: /^Keywords/ });

/** The number the Keywords card shows (its digits; '—' while loading reads as NaN). */
async function keywordCount(page: Page): Promise<number> {
  const text = (await keywordsCard(page).locator('p').nth(1).textContent()) ?? '';
  const digits = text.replace(/\D/g, '');
  return digits ? Number(digits) : Number.NaN;
}

/**
 * A keyword file of this run: a header line, 245 distinct keywords, one row without a keyword
 * and four keywords again in capitals (merged into the first ones): 250 rows, 249 with a
 * keyword, 245 distinct.
 */
function keywordCsv(stamp: string) {
  const priorities = ['high', 'medium', 'low'];
  const keyword = (i: number) => `e2e ${stamp} vendor keyword ${i}`;
  const rows = Array.from(
    { length: 245 },
    (_, i) => `${keyword(i + 1)},${(i + 1) * 10},${(i % 100) + 1},${priorities[i % 3]},Vendor Management`,
  );
  rows.splice(120, 0, ',500,40,high,Vendor Management');
  for (const i of [1, 2, 3, 4]) rows.push(`${keyword(i).toUpperCase()},10,10,low,Vendor Management`);
  return ['Keyword,Search Volume,Difficulty,Priority,Category', ...rows].join('\n') + '\n';
}

test.beforeEach(() => {
  test.skip(!adminEmail || !adminPassword, 'E2E_ADMIN_EMAIL and E2E_ADMIN_PASSWORD are not set');
});

test('an admin uploads a keyword CSV and watches the Keywords count grow by the distinct keywords', async ({ page }) => {
  // Three chunks with pauses, then background ingest, then the 5 s count poll.
  test.setTimeout(120_000);
  const problems = watchForPageProblems(page);
  const stamp = uniqueName('run').split(' ')[1].toLowerCase();
  const file = test.info().outputPath('keywords.csv');
  writeFileSync(file, keywordCsv(stamp));

  await loginAsAdmin(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
  await expect.poll(() => keywordCount(page)).not.toBeNaN();
  const before = await keywordCount(page);

  await page.getByRole('button', { name: 'Upload Keywords' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Keywords' });
  await expect(dialog).toBeVisible();
  await expectNoA11yViolations(page, 'the Upload Keywords dialog');
  await dialog.getByLabel('CSV file').setInputFiles(file);
  await expect(dialog.getByText('249 keywords found in keywords.csv; 1 row without a keyword will be skipped.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Upload 249 keywords' }).click();

  const sent = dialog.getByRole('progressbar', { name: 'Upload progress' });
  await expect(sent).toHaveAttribute('aria-valuetext', '3 of 3 chunks sent', { timeout: 20_000 });
  await expect(sent).toHaveAttribute('aria-valuenow', '100');
  await expect(dialog.getByText('Done: 245 new keywords, 4 keywords merged into existing ones.')).toBeVisible({
    timeout: 60_000,
  });
  await expect(dialog.getByRole('progressbar', { name: 'Ingest progress' })).toHaveAttribute('aria-valuenow', '100');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  await expect.poll(() => keywordCount(page), { timeout: 30_000 }).toBe(before + 245);
  await expect(keywordsCard(page)).not.toContainText('Adding uploaded keywords...');
  expect(problems).toEqual([]);
});

test('an admin generates a draft with AI, edits and publishes it, and finds it on the blog', async ({ page }) => {
  test.setTimeout(150_000);
  const problems = watchForPageProblems(page);
  const keyword = uniqueName('vendor onboarding checklist');

  await loginAsAdmin(page);
  await page.goto('/admin');
  const generate = page.getByRole('button', { name: 'Generate with AI' });
  await expect(generate).toBeEnabled();
  await expect(page.getByRole('note', { name: 'AI is not configured' })).toHaveCount(0);
  await generate.click();

  const dialog = page.getByRole('dialog', { name: 'Generate with AI' });
  await expect(dialog).toBeVisible();
  await expectNoA11yViolations(page, 'the Generate with AI dialog');
  await expect(dialog.getByText(/30-60 seconds/).first()).toBeVisible();
  await expect(dialog.getByLabel('Category')).toHaveValue('Vendor Management');
  await expect(dialog.getByLabel('Word count')).toHaveValue('1200');
  await dialog.getByLabel('Target keywords').fill(keyword);
  await dialog.getByRole('button', { name: 'Generate', exact: true }).click();

  const status = dialog.getByRole('status');
  await expect(status).toContainText(/Queued…|Writing the draft…|Draft ready/);
  await expect(status).toContainText('Draft ready', { timeout: 60_000 });
  await dialog.getByRole('link', { name: 'Edit draft' }).click();

  await expect(page).toHaveURL(/\/admin\/blog\/edit\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Post' })).toBeVisible();
  const titleField = page.getByLabel('Title', { exact: true });
  await expect(titleField).toHaveValue(/\S/);
  const title = (await titleField.inputValue()).trim();
  const published = page.getByRole('checkbox', { name: 'Published' });
  await expect(published).not.toBeChecked();
  await published.check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog post saved' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);

  // The generation is listed with its model and cost.
  const generations = page.getByRole('table', { name: 'Recent generations' });
  await expect(generations.getByRole('row').filter({ hasText: keyword }).getByText('Draft ready')).toBeVisible();

  expect(await blogListHas(page, title)).toBe(true);
  await page.getByRole('link', { name: title, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  // Leave the shared blog as it was.
  await page.goto('/admin');
  await page.getByRole('listitem', { name: title }).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog post deleted' })).toBeVisible();
  expect(problems).toEqual([]);
});
