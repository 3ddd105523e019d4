import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { db } from '@/testing/mocks/db';
import { http } from '@/testing/mocks/http';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';
import type { Webhook, WebhookDelivery } from '../api/types';

const HOOK: Webhook = {
  id: 'webhook-a',
  url: 'https://hooks.example.com/vendorwatch',
  events: ['vendor.created', 'document.expired'],
  createdAt: '2025-01-06T09:00:00Z',
  lastDelivery: { status: 'failed', at: new Date(Date.now() - 60 * 60_000).toISOString() },
};

const DELIVERY: WebhookDelivery = {
  id: 'delivery-a',
  eventId: 'event-a',
  type: 'document.expired',
  status: 'failed',
  attempts: 3,
  responseStatus: 500,
  responseSnippet: 'Internal Server Error',
  error: null,
  createdAt: '2025-01-06T10:00:00Z',
  lastAttemptAt: '2025-01-06T10:05:00Z',
  nextAttemptAt: null,
};

async function webhookRow(url: string) {
  const rows = await screen.findAllByTestId('webhook-row');
  const found = rows.find((r) => within(r).queryAllByText(url).length > 0);
  if (!found) throw new Error(`no row for ${url}`);
  return within(found);
}

describe('webhooks', () => {
  it('lists the endpoints with their events and last delivery', async () => {
    signInAs();
    db.integrations.webhooks = [
      HOOK,
      {
        ...HOOK,
        id: 'webhook-b',
        url: 'https://b.example.com/in',
        events: [
          'vendor.created',
          'vendor.updated',
          'vendor.deleted',
          'document.uploaded',
          'document.expiring',
          'document.expired',
          'vendor.status_changed',
          'vendor.gaps_changed',
        ],
        lastDelivery: null,
      },
    ];
    renderApp('/account/integrations');
    const first = await webhookRow(HOOK.url);
    expect(first.getByText('Vendor created, Document expired')).toBeInTheDocument();
    expect(first.getByText('Failed')).toHaveTextContent('Last delivery: Failed');
    expect(first.getByText(/1 hour ago/)).toBeInTheDocument();
    const second = await webhookRow('https://b.example.com/in');
    expect(second.getByText('All events')).toBeInTheDocument();
    expect(second.getByText('Nothing sent yet')).toBeInTheDocument();
  });

  it('adds an endpoint for the chosen events and shows its secret once', async () => {
    signInAs();
    const { user } = renderApp('/account/integrations');
    expect(await screen.findByText(/No endpoints yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add endpoint' }));
    await user.type(dialog.getByRole('textbox', { name: 'Endpoint URL' }), 'https://hooks.example.com/in');
    const selectAll = dialog.getByRole('checkbox', { name: 'Select all' });
    expect(selectAll).toBeChecked();
    await user.click(selectAll);
    expect(dialog.getByRole('checkbox', { name: 'Vendor created' })).not.toBeChecked();
    await user.click(dialog.getByRole('button', { name: 'Add endpoint' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Choose at least one event.');
    await user.click(dialog.getByRole('checkbox', { name: 'Vendor status changed' }));
    await user.click(dialog.getByRole('checkbox', { name: 'Document expiring' }));
    expect(selectAll).toHaveProperty('indeterminate', true);
    await user.click(dialog.getByRole('button', { name: 'Add endpoint' }));

    const created = within(await screen.findByRole('dialog', { name: 'Webhook added' }));
    expect(db.integrations.webhooks).toEqual([
      expect.objectContaining({ url: 'https://hooks.example.com/in', events: ['document.expiring', 'vendor.status_changed'] }),
    ]);
    const secret = created.getByRole<HTMLInputElement>('textbox', { name: 'Signing secret' }).value;
    expect(secret).toMatch(/^whsec_/);
    expect(created.getByText("Copy this secret now. You won't be able to see it again.")).toBeInTheDocument();
    expect(created.getAllByText(/Vendorwatch-Signature/).length).toBeGreaterThan(0);
    const copy = created.getByRole('button', { name: 'Copy signing secret' });
    expect(copy).toHaveFocus();
    await user.click(copy);
    expect(await navigator.clipboard.readText()).toBe(secret);

    await user.click(created.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = await webhookRow('https://hooks.example.com/in');
    expect(row.getByText('Document expiring, Vendor status changed')).toBeInTheDocument();
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
  });

  it("puts the server's 422 for a private address on the URL field", async () => {
    signInAs();
    const { user } = renderApp('/account/integrations');
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = within(await screen.findByRole('dialog'));
    const url = dialog.getByRole('textbox', { name: 'Endpoint URL' });
    await user.type(url, 'http://192.168.1.20/hook');
    await user.click(dialog.getByRole('button', { name: 'Add endpoint' }));
    const message = 'This address is private: webhooks go only to public addresses.';
    expect(await dialog.findByRole('alert')).toHaveTextContent(message);
    expect(url).toHaveAccessibleDescription(message);
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('status', { hidden: true })).toHaveTextContent('Could not add the webhook');
    expect(db.integrations.webhooks).toHaveLength(0);
  });

  it('checks the address before sending it', async () => {
    signInAs();
    const { user } = renderApp('/account/integrations');
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.type(dialog.getByRole('textbox', { name: 'Endpoint URL' }), 'hooks.example.com');
    await user.click(dialog.getByRole('button', { name: 'Add endpoint' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Enter a full address, starting with https://');
  });

  it('opens the deliveries log and refreshes it', async () => {
    signInAs();
    db.integrations.webhooks = [HOOK];
    db.integrations.deliveries.set(HOOK.id, [
      DELIVERY,
      {
        ...DELIVERY,
        id: 'delivery-b',
        type: 'vendor.created',
        status: 'pending',
        attempts: 1,
        responseStatus: null,
        responseSnippet: null,
        error: 'No answer within 10 seconds',
      },
    ]);
    const { user } = renderApp('/account/integrations');
    const row = await webhookRow(HOOK.url);
    const toggle = row.getByRole('button', { name: 'Deliveries' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const table = within(await screen.findByRole('table', { name: `Deliveries to ${HOOK.url}` }));
    const [failed, pending] = table.getAllByRole('row').slice(1);
    expect(within(failed).getByText('Document expired')).toBeInTheDocument();
    expect(within(failed).getByText('Failed')).toBeInTheDocument();
    expect(within(failed).getByText('500')).toBeInTheDocument();
    expect(within(failed).getByText('3')).toBeInTheDocument();
    expect(within(failed).getByText('Internal Server Error')).toBeInTheDocument();
    expect(within(pending).getByText('Vendor created')).toBeInTheDocument();
    expect(within(pending).getByText('Pending')).toBeInTheDocument();
    expect(within(pending).getByText('None')).toBeInTheDocument();
    expect(within(pending).getByText('No answer within 10 seconds')).toBeInTheDocument();

    db.integrations.deliveries.set(HOOK.id, []);
    await user.click(screen.getByRole('button', { name: 'Refresh deliveries' }));
    expect(await screen.findByText(/No deliveries yet/)).toBeInTheDocument();
  });

  it('shows each delivery as a card on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 639px)',
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    try {
      signInAs();
      db.integrations.webhooks = [HOOK];
      db.integrations.deliveries.set(HOOK.id, [DELIVERY]);
      const { user } = renderApp('/account/integrations');
      await user.click((await webhookRow(HOOK.url)).getByRole('button', { name: 'Deliveries' }));
      const cards = within(await screen.findByRole('list', { name: `Deliveries to ${HOOK.url}` }));
      expect(cards.getByText('Document expired')).toBeInTheDocument();
      expect(cards.getByText('Response 500 · 3 attempts')).toBeInTheDocument();
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('sends a test event, then shows it in the deliveries', async () => {
    signInAs();
    db.integrations.webhooks = [HOOK];
    const posted: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'POST') posted.push(new URL(request.url).pathname);
    });
    const { user } = renderApp('/account/integrations');
    const row = await webhookRow(HOOK.url);
    await user.click(row.getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Test event sent');
    expect(posted).toEqual([`/api/webhooks/${HOOK.id}/test`]);
    const table = within(await screen.findByRole('table', { name: `Deliveries to ${HOOK.url}` }));
    expect(await table.findByText('Test event')).toBeInTheDocument();
    expect(row.getByRole('button', { name: 'Deliveries' })).toHaveAttribute('aria-expanded', 'true');
    // The endpoint's last delivery is the test event, on its way.
    await waitFor(() =>
      expect(row.getAllByText('Pending').map((badge) => badge.textContent)).toContain('Last delivery: Pending'),
    );
  });

  it("shows the server's message when the test event is refused", async () => {
    signInAs();
    db.integrations.webhooks = [HOOK];
    server.use(
      http.untyped.post('*/api/webhooks/:id/test', () =>
        HttpResponse.json({ error: 'rate_limited', message: 'Wait a minute before the next test.' }, { status: 429 }),
      ),
    );
    const { user } = renderApp('/account/integrations');
    await user.click((await webhookRow(HOOK.url)).getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Wait a minute before the next test.');
  });

  it('deletes an endpoint after the confirm dialog', async () => {
    signInAs();
    db.integrations.webhooks = [HOOK];
    const { user } = renderApp('/account/integrations');
    await user.click((await webhookRow(HOOK.url)).getByRole('button', { name: 'Delete' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Delete this webhook?')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Webhook deleted');
    expect(db.integrations.webhooks).toHaveLength(0);
    expect(await screen.findByText(/No endpoints yet/)).toBeInTheDocument();
  });
});
