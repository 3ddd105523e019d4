import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildActivity } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, within } from '@/testing/test-utils';

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
    const list = await screen.findByRole('list', { name: 'Activities' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getByText('Jan 5, 2025 - 3:07 PM')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('Search activities...'), 'bolt');
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    await user.clear(screen.getByPlaceholderText('Search activities...'));
    await user.click(screen.getByRole('button', { name: /Filter by activity type/ }));
    await user.click(await screen.findByRole('option', { name: 'Vendor created' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByText('Vendor Acme was added')).toBeInTheDocument();
  });

  it("says 'No activities found'", async () => {
    signInAs();
    renderApp('/activity');
    expect(await screen.findByText('No activities found')).toBeInTheDocument();
  });
});
