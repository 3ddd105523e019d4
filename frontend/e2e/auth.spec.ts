import { expect, test } from '@playwright/test';
import {
  expectNoA11yViolations,
  loginViaUi,
  registerViaApi,
  registerViaUi,
  uniqueAccount,
  watchForPageProblems,
} from './helpers';

test('register, sign out, log in again, and see the 404 page', async ({ page }) => {
  const problems = watchForPageProblems(page);
  const account = uniqueAccount();
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoA11yViolations(page);
  await registerViaUi(page, account);
  await expect(page.getByRole('status').filter({ hasText: 'Registration successful' })).toBeVisible();
  await expectNoA11yViolations(page, '/dashboard, new account, with the toast');

  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByText(account.name)).toBeVisible();
  await sidebar.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Log In' }).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await expectNoA11yViolations(page, '/, signed out');

  await loginViaUi(page, account);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: 'Login successful' })).toBeVisible();
  await expectNoA11yViolations(page, '/, signed in, with the toast');
  await page.getByRole('banner').getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText('View and manage vendor compliance documents')).toBeVisible();

  // A reload validates the stored token with the server and keeps the user signed in.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await expectNoA11yViolations(page, '404');
  expect(problems).toEqual([]);
});

test("a wrong password shows the 'Login failed' toast", async ({ page, request }) => {
  const account = uniqueAccount('e2e-wrongpw');
  await registerViaApi(request, account);
  await loginViaUi(page, { email: account.email, password: 'not-the-password' });
  await expect(page.getByRole('status').filter({ hasText: 'Login failed' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expectNoA11yViolations(page, '/login, with the Login failed toast');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('signed-out visitors of a signed-in page land on /login', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectNoA11yViolations(page);
});
