import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/format';
import { db } from '@/testing/mocks/db';
import { buildActivity, buildDocument, buildVendor, slots } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { recordGets, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';
import type { DashboardStats } from '@/types/api';

/** The server's figures: nothing here is in the mock's lists, so only the stats can show them. */
const STATS: DashboardStats = {
  totalVendors: 40,
  compliantVendors: 12,
  expiringVendors: 8,
  nonCompliantVendors: 20,
  vendorsWithGaps: 3,
  vendorsNeedingAttention: 28,
  documentsByStatus: { current: 31, expiringSoon: 9, expired: 4, missing: 57 },
  expirationsNext90Days: Array.from({ length: 13 }, (_, i) => ({
    weekStart: `2025-03-${String(1 + i).padStart(2, '0')}`,
    count: 0,
  })),
  upcomingExpirations: [
    { start: '2025-03-01', end: '2025-03-15', count: 5 },
    { start: '2025-03-16', end: '2025-03-30', count: 4 },
    { start: '2025-03-31', end: '2025-04-14', count: 0 },
    { start: '2025-04-15', end: '2025-04-29', count: 2 },
    { start: '2025-04-30', end: '2025-05-14', count: 0 },
    { start: '2025-05-15', end: '2025-05-29', count: 1 },
  ],
};

/** YYYY-MM-DD, `offset` days after today's UTC date (the server's today). */
const fromToday = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

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

  it("draws both charts from the server's stats and asks for no whole list", async () => {
    signInAs();
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
    server.use(http.get('/api/dashboard/stats', () => HttpResponse.json(STATS)));
    const vendorGets = recordGets('/api/vendors');
    const documentGets = recordGets('/api/documents');
    renderApp('/dashboard');

    expect(
      await screen.findByRole('img', {
        name: 'Documents by status: Current 31, Expiring Soon 9, Expired 4, Missing 57',
      }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('img', {
        name: 'Expirations over the next 90 days: Mar 1 5, Mar 16 4, Mar 31 0, Apr 15 2, Apr 30 0, May 15 1',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText('12 documents expire in the next 90 days')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Vendor Compliance Status' });
    await within(table).findByText('Acme Plumbing');
    expect(await screen.findByText('No recent activity')).toBeInTheDocument();

    // The vendor table's pages only; no document list at all.
    expect(vendorGets.length).toBeGreaterThan(0);
    expect(vendorGets.every((params) => params.limit === '5')).toBe(true);
    expect(documentGets).toEqual([]);
  });

  it("counts the mock server's figures as the server does: missing requested slots, six spans of 15 days from today", async () => {
    signInAs();
    db.vendors = [
      // Six slots requested, two filled: 4 missing; Other is not requested.
      buildVendor({ id: 'AAAAAAA1', slots: slots({ w9: 'current', coi_general_liability: 'expiring_soon' }) }),
      // Two requested, none filled: 2 missing.
      buildVendor({ id: 'BBBBBBB2', name: 'Bolt', requiredDocuments: ['w9', 'sales_tax'] }),
    ];
    db.documents = [
      buildDocument({ status: 'expired', expirationDate: fromToday(0) }),
      buildDocument({ status: 'expiring_soon', expirationDate: fromToday(14) }),
      buildDocument({ status: 'expiring_soon', expirationDate: fromToday(15) }),
      buildDocument({ status: 'current', expirationDate: fromToday(89) }),
      buildDocument({ status: 'current', expirationDate: fromToday(90) }),
      buildDocument({ status: 'expired', expirationDate: fromToday(-1) }),
      buildDocument({ status: 'current', expirationDate: null }),
    ];
    renderApp('/dashboard');

    expect(
      await screen.findByRole('img', { name: 'Documents by status: Current 3, Expiring Soon 2, Expired 2, Missing 6' }),
    ).toBeInTheDocument();
    const counts = [2, 1, 0, 0, 0, 1];
    const bars = counts.map((count, i) => `${formatDate(fromToday(15 * i), 'MMM d')} ${count}`).join(', ');
    expect(screen.getByRole('img', { name: `Expirations over the next 90 days: ${bars}` })).toBeInTheDocument();
    expect(screen.getByText('4 documents expire in the next 90 days')).toBeInTheDocument();
  });

  it('shows a spinner while the stats load, and a failure with a retry in each chart', async () => {
    signInAs();
    let fail = true;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/dashboard/stats', async () =>
        fail
          ? (await gate, HttpResponse.json({ error: 'internal', message: 'Boom.' }, { status: 500 }))
          : HttpResponse.json({
              ...STATS,
              upcomingExpirations: STATS.upcomingExpirations.map((b, i) => ({ ...b, count: i === 0 ? 1 : 0 })),
            }),
      ),
    );
    const { user } = renderApp('/dashboard');
    expect(await screen.findAllByRole('progressbar', { name: 'Loading documents' })).toHaveLength(2);
    release();
    const alerts = await screen.findAllByRole('alert');
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toHaveTextContent('Boom.');

    fail = false;
    await user.click(within(alerts[1]).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('img', { name: /^Documents by status: Current 31,/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('1 document expires in the next 90 days')).toBeInTheDocument();
    expect(screen.getAllByTestId('stat-card')[0]).toHaveTextContent('Total Vendors40');
  });
});
