import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '@/lib/format';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

/** Bodies of every generate-weekly-plan call; the mock server's handler still answers. */
function recordPlanCalls() {
  const bodies: unknown[] = [];
  server.events.on('request:start', async ({ request }) => {
    if (request.method === 'POST' && request.url.endsWith('/api/admin/generate-weekly-plan')) {
      bodies.push(await request.clone().json());
    }
  });
  return bodies;
}

async function openAdmin() {
  signInAs({ role: 'admin' });
  const app = renderApp('/admin');
  await screen.findByRole('button', { name: 'Create weekly plan' });
  return app;
}

async function findToast(text: string) {
  await waitFor(() =>
    expect(screen.getAllByRole('status', { hidden: true }).some((el) => el.textContent?.includes(text))).toBe(true),
  );
}

afterEach(() => server.events.removeAllListeners());

describe('Weekly automation', () => {
  it('offers 3, 5 (recommended, chosen) or 7 posts a week with their monthly cost', async () => {
    await openAdmin();
    const group = screen.getByRole('group', { name: 'Posts per week' });
    const options = within(group).getAllByRole('radio');
    expect(options).toHaveLength(3);
    expect(within(group).getByRole('radio', { name: /5 posts per week/ })).toBeChecked();
    expect(within(group).getByRole('radio', { name: /5 posts per week/ })).toHaveAccessibleName(
      '5 posts per week Recommended about $15 per month',
    );
    expect(within(group).getByRole('radio', { name: /3 posts per week/ })).toHaveAccessibleName(
      '3 posts per week about $9 per month',
    );
    expect(within(group).getByRole('radio', { name: /7 posts per week/ })).toHaveAccessibleName(
      '7 posts per week about $21 per month',
    );
    expect(screen.getByText(/scheduled over the next 5 days/)).toBeInTheDocument();
  });

  it('creates a plan and shows its posts, then cancels it after confirmation', async () => {
    const bodies = recordPlanCalls();
    const { user } = await openAdmin();
    await user.click(screen.getByRole('radio', { name: /7 posts per week/ }));
    await user.click(screen.getByRole('button', { name: 'Create weekly plan' }));
    await findToast('Weekly plan created');
    expect(bodies).toEqual([{ postsPerWeek: 7 }]);

    const current = await screen.findByRole('region', { name: 'Current weekly plan' });
    expect(current).toHaveTextContent('Current plan: 7 posts per week');
    expect(current).toHaveTextContent('about $21 per month');
    const items = within(within(current).getByRole('list', { name: 'Scheduled posts' })).getAllByRole('listitem');
    expect(items).toHaveLength(7);
    const first = db.content.weeklyPlan!.plan[0];
    expect(items[0]).toHaveTextContent(first.keyword);
    expect(items[0]).toHaveTextContent(formatDateTime(first.scheduledFor));
    expect(items[0]).toHaveTextContent('Scheduled');
    expect(screen.queryByRole('button', { name: 'Create weekly plan' })).not.toBeInTheDocument();

    await user.click(within(current).getByRole('button', { name: 'Cancel plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the weekly plan?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel plan' }));
    await findToast('Weekly plan cancelled');
    expect(db.content.weeklyPlan?.status).toBe('cancelled');
    const last = await screen.findByRole('region', { name: 'Last weekly plan' });
    expect(last).toHaveTextContent('Cancelled');
    expect(screen.getByRole('button', { name: 'Create weekly plan' })).toBeEnabled();
  });

  it('keeps the plan when the confirmation is declined', async () => {
    const { user } = await openAdmin();
    await user.click(screen.getByRole('button', { name: 'Create weekly plan' }));
    const current = await screen.findByRole('region', { name: 'Current weekly plan' });
    await user.click(within(current).getByRole('button', { name: 'Cancel plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the weekly plan?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep plan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(db.content.weeklyPlan?.status).toBe('active');
  });

  it("says 'Failed to create weekly plan' with the reason when a plan is already active (409)", async () => {
    const { user } = await openAdmin();
    // The server's refusal has a message, so it is what the toast says.
    server.use(
      http.post('/api/admin/generate-weekly-plan', () =>
        HttpResponse.json(
          { error: 'conflict', message: 'A weekly plan is already running. Cancel it to start another.' },
          { status: 409 },
        ),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Create weekly plan' }));
    await findToast('Failed to create weekly plan');
    const toast = screen.getAllByRole('status').find((el) => el.textContent?.includes('Failed to create weekly plan'));
    expect(toast).toHaveTextContent('A weekly plan is already running. Cancel it to start another.');
  });

  it("says 'Failed to create weekly plan' with the server's message when creating fails", async () => {
    const { user } = await openAdmin();
    server.use(
      http.post('/api/admin/generate-weekly-plan', () =>
        HttpResponse.json({ error: 'internal', message: 'The queue is down.' }, { status: 500 }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Create weekly plan' }));
    await findToast('Failed to create weekly plan');
    expect(screen.getByRole('status')).toHaveTextContent('The queue is down.');
    expect(screen.getByRole('button', { name: 'Create weekly plan' })).toBeEnabled();
  });

  it('says when cancelling fails, and the plan stays', async () => {
    const { user } = await openAdmin();
    await user.click(screen.getByRole('button', { name: 'Create weekly plan' }));
    const current = await screen.findByRole('region', { name: 'Current weekly plan' });
    server.use(
      http.delete('/api/admin/weekly-plan', () => HttpResponse.json({ error: 'internal', message: 'Boom.' }, { status: 500 })),
    );
    await user.click(within(current).getByRole('button', { name: 'Cancel plan' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel plan' }));
    await findToast('Failed to cancel weekly plan');
    expect(screen.getByRole('region', { name: 'Current weekly plan' })).toBeInTheDocument();
  });
});
