import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { createAccount } from '@/testing/mocks/db';
import { buildActivity } from '@/testing/mocks/fixtures';
import { activityList } from '@/testing/mocks/handlers/lists';
import { server } from '@/testing/mocks/server';
import { fireEvent, recordGets, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

/** `count` entries, 'Event 01' the oldest: the log shows the last one first. */
function seed(count = 12) {
  signInAs();
  const width = String(count).length;
  db.activity = Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(width, '0');
    return buildActivity({
      activityType: i % 3 === 0 ? 'document_uploaded' : 'vendor_updated',
      description: `Event ${n}`,
      createdAt: new Date(Date.UTC(2025, 0, 1 + i, 12)).toISOString(),
    });
  });
}

const list = () => screen.getByRole('list', { name: 'Activities' });
const descriptions = () =>
  within(list())
    .getAllByRole('listitem')
    .map((li) => li.textContent?.match(/Event \d+/)?.[0]);

async function openActivity() {
  const requests = recordGets('/api/activity-logs');
  const app = renderApp('/activity');
  await screen.findByRole('list', { name: 'Activities' });
  return { ...app, requests };
}

describe('activity log', () => {
  it('searches by description and filters by type', async () => {
    signInAs();
    db.activity = [
      buildActivity({ activityType: 'vendor_created', description: 'Vendor Acme was added', createdAt: '2025-01-05T15:07:00' }),
      buildActivity({
        activityType: 'document_uploaded',
        description: 'W-9 uploaded for Bolt',
        createdAt: '2025-02-01T09:00:00',
      }),
      buildActivity({ activityType: 'something_new', description: 'A future event', createdAt: '2025-02-02T09:00:00' }),
    ];
    const { user } = renderApp('/activity');
    const entries = await screen.findByRole('list', { name: 'Activities' });
    expect(within(entries).getAllByRole('listitem')).toHaveLength(3);
    expect(within(entries).getByText('Jan 5, 2025 - 3:07 PM')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('Search activities...'), 'bolt');
    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(1));
    await user.clear(screen.getByPlaceholderText('Search activities...'));
    await user.click(screen.getByRole('button', { name: /Filter by activity type/ }));
    await user.click(await screen.findByRole('option', { name: 'Vendor created' }));
    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list()).getByText('Vendor Acme was added')).toBeInTheDocument();
  });

  it('names who made each change and filters by person', async () => {
    const owner = signInAs({ name: 'Olive Owner' });
    const mia = createAccount({ id: 'user-mia', name: 'Mia Member', email: 'mia@example.com', orgRole: 'member' });
    db.activity = [
      buildActivity({
        description: 'Vendor Acme was added',
        actor: { id: mia.id, name: mia.name },
        createdAt: '2025-01-05T15:07:00',
      }),
      buildActivity({
        description: 'Vendor Acme was updated',
        actor: { id: owner.id, name: owner.name },
        createdAt: '2025-01-06T10:00:00',
      }),
      buildActivity({
        description: 'W-9 uploaded through the vendor portal',
        actor: null,
        source: 'vendor_portal',
        createdAt: '2025-01-07T10:00:00',
      }),
      buildActivity({
        activityType: 'document_expired',
        description: 'W-9 expired',
        actor: null,
        source: 'system',
        createdAt: '2025-01-08T10:00:00',
      }),
    ];
    const requests = recordGets('/api/activity-logs');
    const { user } = renderApp('/activity');
    await screen.findByRole('list', { name: 'Activities' });
    expect(
      within(list())
        .getAllByTestId('activity-author')
        .map((a) => a.textContent),
    ).toEqual(['Vendorwatch', 'Vendor portal', 'Olive Owner', 'Mia Member']);
    await user.click(await screen.findByRole('button', { name: /Filter by person/ }));
    await user.click(await screen.findByRole('option', { name: 'Mia Member' }));
    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list()).getByText('Vendor Acme was added')).toBeInTheDocument();
    expect(requests.at(-1)).toMatchObject({ actor: 'user-mia', offset: '0' });
  });

  it('offers no person filter to a team of one', async () => {
    seed(2);
    const memberReads = recordGets('/api/team/members');
    await openActivity();
    await waitFor(() => expect(memberReads).toHaveLength(1));
    // The members' answer drawn: the activity list itself stays as it was.
    await screen.findByText('Event 2');
    expect(screen.getByRole('button', { name: /Filter by activity type/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Filter by person/ })).not.toBeInTheDocument();
  });

  it("says 'No activities found'", async () => {
    signInAs();
    const requests = recordGets('/api/activity-logs');
    renderApp('/activity');
    expect(await screen.findByText('No activities found')).toBeInTheDocument();
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
    expect(new Set(requests.map((r) => JSON.stringify(r)))).toEqual(new Set(['{"limit":"5","offset":"0"}']));
  });
});

describe('activity log, paged on the server', () => {
  it('asks for one page of 5, newest first, and reads the total from X-Total-Count', async () => {
    seed();
    const { user, requests } = await openActivity();
    // (The route's loader may have asked before the page did: the same page.)
    expect(new Set(requests.map((r) => JSON.stringify(r)))).toEqual(new Set(['{"limit":"5","offset":"0"}']));
    expect(descriptions()).toEqual(['Event 12', 'Event 11', 'Event 10', 'Event 09', 'Event 08']);
    expect(screen.getByText('Showing 1 to 5 of 12 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(descriptions()[0]).toBe('Event 07'));
    expect(screen.getByText('Showing 6 to 10 of 12 entries')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(descriptions()).toEqual(['Event 02', 'Event 01']));
    expect(screen.getByText('Showing 11 to 12 of 12 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(descriptions()[0]).toBe('Event 07'));
    expect([...new Set(requests.map((r) => r.offset))]).toEqual(['0', '5', '10']);
    expect(requests.every((r) => r.limit === '5' && !('sort' in r))).toBe(true);
  });

  it('keeps the page on show, busy, while the next one loads', async () => {
    seed();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/activity-logs', async ({ request }) => {
        const url = new URL(request.url);
        if (url.searchParams.get('offset') === '5') await gate;
        return activityList(url);
      }),
    );
    const { user } = await openActivity();
    expect(list()).not.toHaveAttribute('aria-busy');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(list()).toHaveAttribute('aria-busy', 'true');
    expect(descriptions()[0]).toBe('Event 12');
    expect(screen.queryByText('Loading activity')).not.toBeInTheDocument();
    release();
    await waitFor(() => expect(descriptions()[0]).toBe('Event 07'));
    expect(list()).not.toHaveAttribute('aria-busy');
  });

  it('sends the search once typing pauses, and starts again at the first page', async () => {
    seed();
    const { user, requests } = await openActivity();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(descriptions()[0]).toBe('Event 07'));
    const before = requests.length;

    // Keystrokes in quick succession (no time passes between them): one request, for the last.
    const search = screen.getByPlaceholderText('Search activities...');
    for (const typed of [' ', '  E', '  Eve', '  Event', '  Event 1']) fireEvent.change(search, { target: { value: typed } });
    expect(requests.length).toBe(before);
    await waitFor(() => expect(descriptions()).toEqual(['Event 12', 'Event 11', 'Event 10']));
    expect(requests.slice(before)).toEqual([{ limit: '5', offset: '0', q: 'Event 1' }]);
    expect(screen.getByText('Showing 1 to 3 of 3 entries')).toBeInTheDocument();
  });

  it('filters by type on the server, from the first page', async () => {
    seed();
    const { user, requests } = await openActivity();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(descriptions()[0]).toBe('Event 07'));
    await user.click(screen.getByRole('button', { name: /Filter by activity type/ }));
    await user.click(await screen.findByRole('option', { name: 'Document uploaded' }));
    await waitFor(() => expect(descriptions()).toEqual(['Event 10', 'Event 07', 'Event 04', 'Event 01']));
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', type: 'document_uploaded' });
    expect(screen.getByText('Showing 1 to 4 of 4 entries')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Filter by activity type/ }));
    await user.click(await screen.findByRole('option', { name: 'All Activities' }));
    await waitFor(() => expect(screen.getByText('Showing 1 to 5 of 12 entries')).toBeInTheDocument());
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0' });
  });

  it("says 'No activities found' when the search matches nothing", async () => {
    seed();
    const { user, requests } = await openActivity();
    await user.type(screen.getByPlaceholderText('Search activities...'), 'nobody');
    expect(await screen.findByText('No activities found')).toBeInTheDocument();
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', q: 'nobody' });
    expect(screen.queryByRole('list', { name: 'Activities' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
  });
});
