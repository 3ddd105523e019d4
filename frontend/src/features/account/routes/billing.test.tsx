import { HttpResponse } from 'msw';
import { BILLING_OFF_TEXT } from '@/components/plan/upgrade-button';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { BILLING_PORTAL_URL, CHECKOUT_URL } from '@/testing/mocks/handlers/billing';
import { http } from '@/testing/mocks/http';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, stubLocationAssign, waitFor, within } from '@/testing/test-utils';
import { planPrice, subscriptionText } from './billing';

let location: ReturnType<typeof stubLocationAssign> | null = null;
afterEach(() => {
  location?.restore();
  location = null;
});

function professional() {
  db.plan = { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null };
  db.billing.hasCustomer = true;
}

async function planCard() {
  const heading = await screen.findByRole('heading', { name: 'Current plan' });
  return within(heading.closest('section') as HTMLElement);
}

describe('billing page', () => {
  it('is in the account navigation', async () => {
    signInAs();
    const { user, router } = renderApp('/dashboard');
    const account = within(await screen.findByTestId('sidebar')).getByRole('navigation', { name: 'Account' });
    await user.click(within(account).getByRole('link', { name: 'Billing' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/billing');
  });

  it('shows the Professional plan, its price and renewal date, and opens the billing portal', async () => {
    signInAs();
    professional();
    db.billing.renewsAt = '2025-03-01T12:00:00Z';
    location = stubLocationAssign();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('/api/billing/portal', async () => {
        await held;
      }),
    );
    const { user } = renderApp('/billing');
    const card = await planCard();
    expect(card.getByText('Plan').nextSibling).toHaveTextContent('Professional');
    expect(await card.findByText('$29/month')).toBeInTheDocument();
    expect(card.getByText('Vendors').nextSibling).toHaveTextContent('0 of 25');
    expect(card.getByText('Renews on Mar 1, 2025')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Upgrade Now' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    const manage = card.getByRole('button', { name: 'Manage billing' });
    await user.click(manage);
    await waitFor(() => expect(manage).toBeDisabled());
    expect(within(manage).getByTestId('portal-spinner')).toBeInTheDocument();
    release();
    await waitFor(() => expect(location?.assign).toHaveBeenCalledWith(BILLING_PORTAL_URL));
    expect(manage).toBeDisabled();
  });

  it('says when a cancelled subscription ends and shows a payment problem', async () => {
    signInAs();
    professional();
    db.billing.renewsAt = '2025-03-01T12:00:00Z';
    db.billing.cancelAt = '2025-04-15T12:00:00Z';
    db.billing.paymentProblem = 'Your last payment failed. Update your card to keep Professional.';
    renderApp('/billing');
    const card = await planCard();
    expect(card.getByText('Ends on Apr 15, 2025; your plan returns to Free')).toBeInTheDocument();
    expect(card.queryByText(/Renews on/)).not.toBeInTheDocument();
    const problem = screen.getByRole('alert');
    expect(problem).toHaveTextContent('Payment problem');
    expect(problem).toHaveTextContent('Your last payment failed. Update your card to keep Professional.');
  });

  it('offers Upgrade Now on the Free plan', async () => {
    signInAs();
    location = stubLocationAssign();
    const { user } = renderApp('/billing');
    const card = await planCard();
    expect(card.getByText('Plan').nextSibling).toHaveTextContent('Free');
    expect(await card.findByText('$0')).toBeInTheDocument();
    expect(card.queryByTestId('subscription-period')).not.toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Manage billing' })).not.toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Upgrade Now' }));
    await waitFor(() => expect(location?.assign).toHaveBeenCalledWith(CHECKOUT_URL));
  });

  it("toasts the server's sentence when the billing portal cannot open", async () => {
    signInAs();
    professional();
    db.billing.hasCustomer = false;
    location = stubLocationAssign();
    const { user } = renderApp('/billing');
    const manage = (await planCard()).getByRole('button', { name: 'Manage billing' });
    await user.click(manage);
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Manage billing failed');
    expect(toast).toHaveTextContent('Your organization has no billing account yet.');
    await waitFor(() => expect(manage).toBeEnabled());
    expect(location.assign).not.toHaveBeenCalled();
  });

  it('says online payment is not set up instead of offering buttons', async () => {
    signInAs();
    professional();
    db.billing.billingEnabled = false;
    renderApp('/billing');
    const card = await planCard();
    expect(card.getByText(BILLING_OFF_TEXT)).toBeInTheDocument();
    expect(card.queryByRole('button')).not.toBeInTheDocument();
  });

  it('leaves the price out when the server does not publish it', async () => {
    signInAs();
    // Outside the document (no plans), as an older server would answer.
    server.use(http.untyped.get('*/api/config', () => HttpResponse.json({ supportEmail: 'help@vendorwatch.test' })));
    renderApp('/billing');
    const card = await planCard();
    expect(card.getByText('Vendors')).toBeInTheDocument();
    expect(card.queryByText('Price')).not.toBeInTheDocument();
  });
});

describe('billing texts', () => {
  it('formats prices from cents', () => {
    const plans = { free: { vendorLimit: 2, documentsPerVendor: 10, priceCents: 0 } };
    expect(
      planPrice(
        { supportEmail: '', plans: { ...plans, professional: { vendorLimit: 25, documentsPerVendor: null, priceCents: 2900 } } },
        'professional',
      ),
    ).toBe('$29/month');
    expect(
      planPrice(
        { supportEmail: '', plans: { professional: { vendorLimit: 25, documentsPerVendor: null, priceCents: 2950 } } },
        'professional',
      ),
    ).toBe('$29.50/month');
    expect(planPrice({ supportEmail: '', plans }, 'free')).toBe('$0');
    expect(planPrice({ supportEmail: '' }, 'professional')).toBeNull();
    expect(planPrice(undefined, 'free')).toBeNull();
  });

  it('prefers the end of a cancelled subscription over its renewal', () => {
    expect(subscriptionText({ renewsAt: '2025-03-01T12:00:00Z', cancelAt: null })).toBe('Renews on Mar 1, 2025');
    expect(subscriptionText({ renewsAt: '2025-03-01T12:00:00Z', cancelAt: '2025-03-01T12:00:00Z' })).toBe(
      'Ends on Mar 1, 2025; your plan returns to Free',
    );
    expect(subscriptionText({ renewsAt: null, cancelAt: null })).toBeNull();
  });
});
