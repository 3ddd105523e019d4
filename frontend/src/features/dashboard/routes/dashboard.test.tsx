import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildActivity, buildVendor, slots } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

describe('dashboard', () => {
  it('shows the stat cards, the compliance table with dots and recent activity', async () => {
    signInAs();
    db.vendors = [
      buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing', documentStatus: 'current', slots: slots({ w9: 'current' }) }),
      buildVendor({ id: 'BBBBBBB2', name: 'Bolt Electrical', email: 'hi@bolt.test', documentStatus: 'expired' }),
    ];
    db.plan = { plan: 'professional', vendorLimit: 25 };
    db.activity = Array.from({ length: 6 }, (_, i) => buildActivity({ description: `Event ${i + 1}` }));
    const { user } = renderApp('/dashboard');

    const cards = await screen.findAllByTestId('stat-card');
    await waitFor(() => expect(cards[0]).toHaveTextContent('Total Vendors2'));
    expect(cards[1]).toHaveTextContent('Compliant1');
    expect(cards[2]).toHaveTextContent('Needs Attention1');

    const table = await screen.findByRole('table', { name: 'Vendor Compliance Status' });
    expect(within(table).getAllByRole('list', { name: 'Document slots' })).toHaveLength(2);
    await user.type(screen.getByPlaceholderText('Search vendors...'), 'bolt');
    await waitFor(() => expect(within(table).queryByText('Acme Plumbing')).not.toBeInTheDocument());
    expect(within(table).getByText('Bolt Electrical')).toBeInTheDocument();

    expect(await screen.findByText('Event 4')).toBeInTheDocument();
    expect(screen.queryByText('Event 5')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/activity');
    expect(screen.queryByTestId('upgrade-card')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('filters by status', async () => {
    signInAs();
    db.vendors = [
      buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing', documentStatus: 'current' }),
      buildVendor({ id: 'BBBBBBB2', name: 'Bolt Electrical', email: 'hi@bolt.test', documentStatus: 'missing' }),
    ];
    const { user } = renderApp('/dashboard');
    const table = await screen.findByRole('table', { name: 'Vendor Compliance Status' });
    await within(table).findByText('Acme Plumbing');
    await user.click(screen.getByRole('button', { name: /Filter by status/ }));
    await user.click(await screen.findByRole('option', { name: 'Missing Documents' }));
    await waitFor(() => expect(within(table).queryByText('Acme Plumbing')).not.toBeInTheDocument());
    expect(within(table).getByText('Bolt Electrical')).toBeInTheDocument();
  });

  it("at the Free limit: Add New Vendor disabled, limit banner and upgrade card; 'No recent activity'", async () => {
    signInAs();
    db.vendors = [buildVendor({ id: 'AAAAAAA1' }), buildVendor({ id: 'BBBBBBB2', name: 'Bolt' })];
    renderApp('/dashboard');
    expect(await screen.findByText('Free account limit reached')).toBeInTheDocument();
    expect(
      screen.getByText('Free accounts are limited to a maximum of 2 vendors. You have reached this limit.'),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Add New Vendor' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByTestId('upgrade-card')).toBeInTheDocument();
    expect(await screen.findByText('No recent activity')).toBeInTheDocument();
  });

  it('shows the upgrade card on the Free plan and Admin only to admins', async () => {
    signInAs({ role: 'admin' });
    renderApp('/dashboard');
    expect(await screen.findByTestId('upgrade-card')).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Add New Vendor' })).not.toHaveAttribute('aria-disabled');
    expect(screen.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
  });
});
