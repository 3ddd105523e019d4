import { HttpResponse } from 'msw';
import { db } from '@/testing/mocks/db';
import { afterEach, describe, expect, it } from 'vitest';
import { buildVendor } from '@/testing/mocks/fixtures';
import { CHECKOUT_URL } from '@/testing/mocks/handlers/billing';
import { http } from '@/testing/mocks/http';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, stubLocationAssign, waitFor, within } from '@/testing/test-utils';
import { BILLING_OFF_TEXT } from './upgrade-button';

let location: ReturnType<typeof stubLocationAssign> | null = null;
afterEach(() => {
  location?.restore();
  location = null;
});

async function upgradeCard() {
  return within(await screen.findByTestId('upgrade-card'));
}

describe('Upgrade Now', () => {
  it('shows a spinner and stays disabled while checkout starts, then goes to the checkout url', async () => {
    signInAs();
    location = stubLocationAssign();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    server.use(
      http.post('/api/create-subscription', async ({ request }) => {
        calls += 1;
        expect(await request.text()).toBe('');
        await held;
        return HttpResponse.json({ url: CHECKOUT_URL });
      }),
    );
    const { user } = renderApp('/dashboard');
    const button = (await upgradeCard()).getByRole('button', { name: 'Upgrade Now' });
    await user.click(button);

    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(within(button).getByTestId('upgrade-spinner')).toBeInTheDocument();
    await user.click(button);
    expect(calls).toBe(1);

    release();
    await waitFor(() => expect(location?.assign).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(button).toBeDisabled();
    expect(calls).toBe(1);
  });

  it("shows 'Upgrade Failed' with the server's message when checkout cannot start", async () => {
    signInAs();
    location = stubLocationAssign();
    server.use(
      http.post('/api/create-subscription', () =>
        HttpResponse.json({ error: 'stripe_unavailable', message: 'Stripe did not answer. Try again.' }, { status: 502 }),
      ),
    );
    const { user } = renderApp('/dashboard');
    const button = (await upgradeCard()).getByRole('button', { name: 'Upgrade Now' });
    await user.click(button);
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Upgrade Failed');
    expect(toast).toHaveTextContent('Stripe did not answer. Try again.');
    await waitFor(() => expect(button).toBeEnabled());
    expect(location.assign).not.toHaveBeenCalled();
  });

  it("says 'No checkout URL received from server' when the answer has no url", async () => {
    signInAs();
    location = stubLocationAssign();
    // An answer the document does not allow (no url): the screen must still cope.
    server.use(http.untyped.post('*/api/create-subscription', () => HttpResponse.json({})));
    const { user } = renderApp('/dashboard');
    await user.click((await upgradeCard()).getByRole('button', { name: 'Upgrade Now' }));
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Upgrade Failed');
    expect(toast).toHaveTextContent('No checkout URL received from server');
    expect(location.assign).not.toHaveBeenCalled();
  });

  it('switches to the billing-off sentence when the server answers billing_not_configured', async () => {
    signInAs();
    location = stubLocationAssign();
    const { user } = renderApp('/dashboard');
    const card = await upgradeCard();
    db.billing.billingEnabled = false;
    await user.click(card.getByRole('button', { name: 'Upgrade Now' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Online payment is not configured on this server. An administrator can change the plan.',
    );
    expect(await card.findByText(BILLING_OFF_TEXT)).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Upgrade Now' })).not.toBeInTheDocument();
    expect(location.assign).not.toHaveBeenCalled();
  });
});

describe('upgrade prompts with billing off', () => {
  it('show a sentence instead of a button that could only fail', async () => {
    signInAs();
    db.billing.billingEnabled = false;
    renderApp('/dashboard');
    const card = await upgradeCard();
    expect(await card.findByText(BILLING_OFF_TEXT)).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Upgrade Now' })).not.toBeInTheDocument();
  });
});

describe('Free limit banner', () => {
  it('offers Upgrade Now on the vendor list', async () => {
    signInAs();
    location = stubLocationAssign();
    db.vendors = [buildVendor({ id: 'AAAAAAA1' }), buildVendor({ id: 'BBBBBBB2', name: 'Bolt' })];
    const { user } = renderApp('/vendors');
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Free account limit reached');
    await user.click(within(banner).getByRole('button', { name: 'Upgrade Now' }));
    await waitFor(() => expect(location?.assign).toHaveBeenCalledWith(CHECKOUT_URL));
  });

  it('shows the billing-off sentence when the server cannot take payments', async () => {
    signInAs();
    db.billing.billingEnabled = false;
    db.vendors = [buildVendor({ id: 'AAAAAAA1' }), buildVendor({ id: 'BBBBBBB2', name: 'Bolt' })];
    renderApp('/vendors/new');
    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText(BILLING_OFF_TEXT)).toBeInTheDocument();
    expect(within(banner).queryByRole('button', { name: 'Upgrade Now' })).not.toBeInTheDocument();
  });

  it('leaves Upgrade Now to the upgrade card on the dashboard', async () => {
    signInAs();
    db.vendors = [buildVendor({ id: 'AAAAAAA1' }), buildVendor({ id: 'BBBBBBB2', name: 'Bolt' })];
    renderApp('/dashboard');
    expect(await screen.findByText('Free account limit reached')).toBeInTheDocument();
    expect(await screen.findAllByRole('button', { name: 'Upgrade Now' })).toHaveLength(1);
  });
});
