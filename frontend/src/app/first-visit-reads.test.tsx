import { beforeAll, describe, expect, it } from 'vitest';
import { readEarly } from '@/lib/early-reads';
import { queryClient } from '@/lib/query-client';
import { sessionStore } from '@/lib/session';
import { getStoredToken } from '@/lib/storage';
import { db } from '@/testing/mocks/db';
import { buildActivity, buildBlogPost, buildVendor } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';
import { earlyReads } from './pages';

/** Every GET from now on, by path and query ('/api/vendors?limit=5&offset=0'), with how often it went out. */
function countGets(): Map<string, number> {
  const counts = new Map<string, number>();
  server.events.on('request:start', ({ request }) => {
    if (request.method !== 'GET') return;
    const url = new URL(request.url);
    const key = `${url.pathname}${url.search}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  return counts;
}

/** Once nothing is being read any more: the reads a mount would repeat have gone out by then. */
async function settled(counts: Map<string, number>) {
  await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * A page opened from the address bar, as src/main.tsx starts it for someone with a stored session:
 * the token not yet checked, the entry's early reads on their way, then the app (in StrictMode,
 * as src/app/root.tsx renders it).
 */
function firstVisit(path: string) {
  signInAs();
  sessionStore.reload();
  const counts = countGets();
  readEarly(earlyReads(path), getStoredToken() ?? '');
  return { counts, ...renderApp(path, { strict: true }) };
}

describe('a first visit reads each address once', () => {
  beforeAll(async () => {
    // The entry's early reads are dropped after 10 s: the first test should not spend them on
    // Vitest compiling the pages.
    await Promise.all([
      import('./prefetch'),
      import('./routes/app-root'),
      import('./routes/app/dashboard'),
      import('./routes/app/dashboard/details'),
      import('@/features/vendors/routes/vendors'),
      import('@/features/blog/routes/blog-list'),
    ]);
  });

  it('/dashboard: the session, the plan, the stats, the vendor table and the activity once each', async () => {
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
    db.activity = [buildActivity({ description: 'Event 1' })];
    const { counts } = firstVisit('/dashboard');

    const table = await screen.findByRole('table', { name: 'Vendor Compliance Status' });
    expect(await within(table).findByText('Acme Plumbing')).toBeInTheDocument();
    expect(await screen.findByText('Event 1')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('stat-card')[0]).toHaveTextContent('Total Vendors1'));

    expect(await settled(counts)).toEqual({
      '/api/activity-logs?limit=4': 1,
      '/api/auth/me': 1,
      // The upgrade card says how many people Professional has (plans.professional.seats).
      '/api/config': 1,
      '/api/dashboard/stats': 1,
      '/api/payment-status': 1,
      '/api/vendors?limit=5&offset=0': 1,
    });
  });

  it('/vendors: the session, the plan and the first page once each', async () => {
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
    const { counts } = firstVisit('/vendors');

    expect((await screen.findAllByText('Acme Plumbing')).length).toBeGreaterThan(0);

    expect(await settled(counts)).toEqual({
      '/api/auth/me': 1,
      '/api/payment-status': 1,
      '/api/vendors?limit=5&offset=0': 1,
    });
  });

  it('/blog: the first page of posts once', async () => {
    db.blogPosts = [buildBlogPost({ title: 'Certificates, explained', status: 'published' })];
    const counts = countGets();
    renderApp('/blog', { strict: true });

    expect(await screen.findByRole('link', { name: 'Certificates, explained' })).toBeInTheDocument();

    const reads = await settled(counts);
    // The footer's support address (GET /api/config) is read once per page load, not per visit.
    delete reads['/api/config'];
    expect(reads).toEqual({ '/api/blog-posts?limit=6&offset=0': 1 });
  });

  it('opening a page again reads it again, once', async () => {
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
    const { counts, router } = firstVisit('/vendors');
    expect((await screen.findAllByText('Acme Plumbing')).length).toBeGreaterThan(0);
    await settled(counts);

    counts.clear();
    await router.navigate('/dashboard');
    const table = await screen.findByRole('table', { name: 'Vendor Compliance Status' });
    expect(await within(table).findByText('Acme Plumbing')).toBeInTheDocument();
    expect(await screen.findByText('No recent activity')).toBeInTheDocument();
    expect(await settled(counts)).toEqual({
      '/api/activity-logs?limit=4': 1,
      '/api/dashboard/stats': 1,
      '/api/payment-status': 1,
      '/api/vendors?limit=5&offset=0': 1,
    });

    counts.clear();
    await router.navigate('/vendors');
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Vendor Compliance Status' })).not.toBeInTheDocument());
    expect((await screen.findAllByText('Acme Plumbing')).length).toBeGreaterThan(0);
    expect(await settled(counts)).toEqual({
      '/api/payment-status': 1,
      '/api/vendors?limit=5&offset=0': 1,
    });
  });

  it('a page reads again what an earlier page read, even without a loader for it', async () => {
    db.plan = { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null };
    const { counts, router } = firstVisit('/dashboard');
    expect(await screen.findByText('No recent activity')).toBeInTheDocument();
    await settled(counts);

    // The Reports page's switch shows the user's preference (GET /api/auth/me), read at start-up.
    counts.clear();
    await router.navigate('/reports');
    expect(await screen.findByRole('switch', { name: 'Email me a weekly summary' })).toBeInTheDocument();
    expect(await settled(counts)).toEqual({
      '/api/auth/me': 1,
      '/api/reports/compliance?days=30': 1,
      '/api/reports/expirations': 1,
      '/api/reports/non-compliant': 1,
      '/api/reports/responsiveness': 1,
    });
  });
});
