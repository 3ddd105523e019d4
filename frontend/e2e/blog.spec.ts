import { expect, test } from '@playwright/test';
import { adminEmail, adminPassword, blogListHas, loginAsAdmin, registerViaUi, uniqueAccount, uniqueName } from './helpers';

test('an admin writes, previews and publishes a post; a draft leaves the public blog', async ({ page }) => {
  test.skip(!adminEmail || !adminPassword, 'E2E_ADMIN_EMAIL and E2E_ADMIN_PASSWORD are not set');
  const title = uniqueName('Certificates of insurance, explained');

  await loginAsAdmin(page);
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole('link', { name: 'New Post' }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/new$/);

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Please fill in both title and content fields.')).toBeVisible();

  await page.getByLabel('Title', { exact: true }).fill(title);
  await page
    .getByLabel('Content')
    .fill('## Why it matters\n\nA lapsed COI leaves you **uninsured**.\n\n<script>window.hacked = 1</script>');
  await page.getByLabel('Tags').fill('insurance, coi');
  await page.getByRole('tab', { name: 'Preview' }).click();
  const preview = page.getByTestId('blog-preview');
  await expect(preview.getByRole('heading', { level: 2, name: 'Why it matters' })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('uninsured');
  await expect(preview.locator('script')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Write' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog post saved' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);

  // Saved as a draft: not public yet. Publish it from the list.
  const row = page.getByRole('listitem', { name: title });
  await expect(row.getByText('Draft')).toBeVisible();
  await row.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog post published' })).toBeVisible();
  await expect(row.getByText('Published')).toBeVisible();
  const editHref = await row.getByRole('link', { name: 'Edit' }).getAttribute('href');
  const slug = decodeURIComponent((editHref ?? '').split('/').pop() ?? '');
  expect(slug).not.toBe('');

  expect(await blogListHas(page, title)).toBe(true);
  await page.getByRole('link', { name: title, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/blog/${slug}$`));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByTestId('blog-post-body').locator('strong')).toHaveText('uninsured');
  await expect(page.getByRole('list', { name: 'Tags' })).toContainText('insurance');
  await expect(
    page.getByRole('complementary', { name: 'Get started' }).getByRole('link', { name: 'Go to Dashboard' }),
  ).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();

  // Reverting is only possible through the editor's publish checkbox.
  await page.goto(`/admin/blog/edit/${encodeURIComponent(slug)}`);
  const published = page.getByRole('checkbox', { name: 'Published' });
  await expect(published).toBeChecked();
  await published.uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('listitem', { name: title }).getByText('Draft')).toBeVisible();

  expect(await blogListHas(page, title)).toBe(false);
  await page.goto(`/blog/${encodeURIComponent(slug)}`);
  await expect(page.getByRole('heading', { name: 'Blog Post Not Found' })).toBeVisible();

  // Leave the shared blog as it was.
  await page.goto('/admin');
  await page.getByRole('listitem', { name: title }).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog post deleted' })).toBeVisible();
});

test('a non-admin sees no Admin button and is told they have no access at /admin', async ({ page }) => {
  await registerViaUi(page, uniqueAccount('e2e-blog'));
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.getByText('You do not have access to the admin area.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  const refused = await page.request.get('/api/admin/blog-stats', {
    headers: { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}` },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error).toBe('forbidden');
});

test('the public blog needs no login', async ({ page }) => {
  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
  await page.goto('/blog/no-such-post-anywhere');
  await expect(page.getByRole('heading', { name: 'Blog Post Not Found' })).toBeVisible();
});
