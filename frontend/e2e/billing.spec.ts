import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoA11yViolations, registerViaUi, uniqueAccount } from './helpers';

/**
 * Paying for Professional, with the server pointed at a Stripe-shaped server of the tests'
 * own (scripts/stripe_fake.py, started by scripts/test): Checkout is that server's page, a
 * payment is marked there, and its events are signed like Stripe's.
 */
const stripeUrl = process.env.E2E_STRIPE_URL ?? 'http://127.0.0.1:5198';
const webhookSecret = process.env.E2E_STRIPE_WEBHOOK_SECRET ?? 'whsec_vendorwatch_e2e';

async function startCheckout(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Upgrade Now' }).first().click();
  await expect(page).toHaveURL(new RegExp(`^${stripeUrl}/c/pay/cs_test_e2e\\d+$`));
  await expect(page.getByRole('heading', { name: 'Stripe Checkout (test)' })).toBeVisible();
  return new URL(page.url()).pathname.split('/').pop() ?? '';
}

async function pay(request: APIRequestContext, sessionId: string) {
  const paid = await request.post(`${stripeUrl}/_test/sessions/${sessionId}/pay`, {
    data: { subscription: `sub_${sessionId}` },
  });
  expect(paid.status()).toBe(200);
}

async function planShown(page: Page) {
  await page.goto('/billing');
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  return page.getByRole('definition').first();
}

test('a paid checkout makes the plan Professional, with its renewal date and the billing portal', async ({ page, request }) => {
  await registerViaUi(page, uniqueAccount('paid'));
  const sessionId = await startCheckout(page);
  await pay(request, sessionId);

  await page.goto(`/payment-success?session_id=${sessionId}&upgrade_success=true`);
  await expect(page.getByRole('heading', { name: 'Thank you for your payment!' })).toBeVisible();
  await expect(page.getByText('Your account is now on the Professional plan.')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 5_000 });
  await expect(await planShown(page)).toHaveText('Professional');

  const periodEnd = Math.floor(Date.UTC(2031, 2, 14, 12) / 1000);
  const sent = await request.post(`${stripeUrl}/_test/events/subscription-updated`, {
    data: { endpoint: new URL('/api/webhooks/stripe', page.url()).toString(), secret: webhookSecret, sessionId, periodEnd },
  });
  expect(await sent.json()).toEqual({ status: 200 });
  await page.reload();
  await expect(page.getByTestId('subscription-period')).toHaveText('Renews on Mar 14, 2031');
  await expectNoA11yViolations(page, '/billing, Professional');

  await page.getByRole('button', { name: 'Manage billing' }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripeUrl}/p/session/bps_e2e\\d+$`));
  await expect(page.getByRole('heading', { name: 'Stripe customer portal (test)' })).toBeVisible();
});

test('coming back from checkout without paying leaves the plan Free', async ({ page }) => {
  await registerViaUi(page, uniqueAccount('unpaid'));
  const sessionId = await startCheckout(page);

  await page.goto(`/payment-success?session_id=${sessionId}&upgrade_success=true`);
  await expect(page.getByRole('heading', { name: 'Thank you for your payment!' })).toBeVisible();
  await expect(page.getByText('We could not confirm your payment yet', { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 5_000 });
  await expect(await planShown(page)).toHaveText('Free');
  await expectNoA11yViolations(page, '/billing, Free');

  await page.goto('/upgrade-success?user_id=1&upgrade_success=true');
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 5_000 });
  await expect(await planShown(page)).toHaveText('Free');
});
