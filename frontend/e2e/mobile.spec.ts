import { expect, test } from '@playwright/test';
import { createVendorViaApi, expectNoA11yViolations, registerViaUi, uniqueAccount, uniqueName } from './helpers';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test('the landing page fits a 390px phone', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoA11yViolations(page, '/, phone');
});

test('the public blog header fits a 360px phone: Blog and the buttons do not overlap', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/blog');
  const header = page.locator('header').first();
  await expect(header.getByRole('link', { name: 'Register' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Log In' })).toBeHidden();
  const boxes = await header.getByRole('link').evaluateAll((links) =>
    links
      .map((link) => link.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0)
      .map(({ left, right, top, bottom }) => ({ left, right, top, bottom })),
  );
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      expect(overlap, `links at ${JSON.stringify(a)} and ${JSON.stringify(b)} overlap`).toBe(false);
    }
  }
});

test('phone layout: top bar, bottom bar with plus button, slide-out menu with email, no sidebar', async ({ page }) => {
  const account = uniqueAccount('e2e-phone');
  await registerViaUi(page, account);

  await expect(page.getByTestId('mobile-topbar')).toBeVisible();
  await expect(page.getByTestId('sidebar')).toBeHidden();
  const bottomBar = page.getByTestId('bottom-bar');
  await expect(bottomBar).toBeVisible();
  for (const name of ['Dashboard', 'Vendors', 'Documents', 'Reminders']) {
    await expect(bottomBar.getByRole('link', { name })).toBeVisible();
  }
  const plus = bottomBar.getByRole('link', { name: 'Add New Vendor' });
  await expect(plus).toBeVisible();
  await expect(plus).toHaveAttribute('href', '/vendors/new');
  await expectNoA11yViolations(page, '/dashboard, phone');

  await page.getByTestId('mobile-topbar').getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByTestId('mobile-menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByText(account.email)).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Activity Log' })).toBeVisible();
  await expectNoA11yViolations(page, 'phone menu');

  await menu.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('bottom-bar')).toHaveCount(0);
});

test('phone layout: the vendor cards and a vendor row menu', async ({ page }) => {
  await registerViaUi(page, uniqueAccount('e2e-phone-menu'));
  const name = uniqueName('Pocket Plumbing');
  await createVendorViaApi(page, { name });
  await page.goto('/vendors');
  await expect(page.getByRole('list', { name: 'Vendors' })).toContainText(name);
  await expectNoA11yViolations(page, '/vendors, phone');
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
  await expectNoA11yViolations(page, '/vendors, row menu open, phone');
});
