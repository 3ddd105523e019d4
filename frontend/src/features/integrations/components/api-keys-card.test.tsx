import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { http } from '@/testing/mocks/http';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';
import type { ApiKey } from '../api/types';
import { curlExample } from './api-keys-card';

const KEY: ApiKey = {
  id: 'key-a',
  name: 'Accounting system',
  scope: 'write',
  prefix: 'vwk_a1B2',
  createdAt: '2025-01-06T09:00:00Z',
  createdBy: 'Olive Owner',
  lastUsedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
};

async function keyRow(name: string) {
  const rows = await screen.findAllByTestId('api-key-row');
  const found = rows.find((r) => within(r).queryAllByText(name).length > 0);
  if (!found) throw new Error(`no row for ${name}`);
  return within(found);
}

describe('API keys', () => {
  it('lists the keys: name, scope, prefix, who made it, last used', async () => {
    signInAs({ name: 'Olive Owner', orgRole: 'owner' });
    db.integrations.apiKeys = [
      KEY,
      { ...KEY, id: 'key-b', name: 'Reports', scope: 'read', prefix: 'vwk_Zz99', lastUsedAt: null },
    ];
    renderApp('/account/integrations');
    const accounting = await keyRow('Accounting system');
    expect(accounting.getByText('Read and write')).toBeInTheDocument();
    expect(accounting.getByText('vwk_a1B2…')).toBeInTheDocument();
    expect(accounting.getByText(/Created by Olive Owner on Jan 6, 2025 · Last used 5 minutes ago/)).toBeInTheDocument();
    const reports = await keyRow('Reports');
    expect(reports.getByText('Read only')).toBeInTheDocument();
    expect(reports.getByText(/Never used/)).toBeInTheDocument();
    expect(screen.getByText(curlExample(window.location.origin))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /API reference/ })).toHaveAttribute('href', '/api/openapi.json');
  });

  it('says when there is no key yet', async () => {
    signInAs();
    renderApp('/account/integrations');
    expect(await screen.findByText(/No API keys yet/)).toBeInTheDocument();
  });

  it('creates a key and shows it once, with Copy', async () => {
    signInAs({ orgRole: 'admin' });
    const { user } = renderApp('/account/integrations');
    await user.click(await screen.findByRole('button', { name: 'Create API key' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create API key' }));
    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'Zapier');
    expect(dialog.getByRole('radio', { name: /Read only/ })).toBeChecked();
    await user.click(dialog.getByRole('radio', { name: /Read and write/ }));
    await user.click(dialog.getByRole('button', { name: 'Create key' }));

    const created = within(await screen.findByRole('dialog', { name: 'API key created' }));
    const key = db.integrations.apiKeys[0];
    expect(key).toMatchObject({ name: 'Zapier', scope: 'write' });
    const field = created.getByRole<HTMLInputElement>('textbox', { name: 'API key for Zapier' });
    const full = field.value;
    expect(full).toMatch(/^vwk_[A-Za-z0-9]{40}$/);
    expect(full.startsWith(key.prefix)).toBe(true);
    expect(created.getByText("Copy this key now. You won't be able to see it again.")).toBeInTheDocument();
    const copy = created.getByRole('button', { name: 'Copy API key' });
    expect(copy).toHaveFocus();
    await user.click(copy);
    expect(await navigator.clipboard.readText()).toBe(full);
    expect(await screen.findByRole('status', { hidden: true })).toHaveTextContent('Copied');

    // Once closed, the key is gone for good: the list shows its prefix only.
    await user.click(created.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = await keyRow('Zapier');
    expect(row.getByText(`${key.prefix}…`)).toBeInTheDocument();
    expect(screen.queryByDisplayValue(full)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create API key' }));
    expect(within(await screen.findByRole('dialog')).getByRole('textbox', { name: 'Name' })).toHaveValue('');
  });

  it("puts the server's 422 on the name field and keeps the dialog open", async () => {
    signInAs();
    const message = 'A key named Zapier already exists.';
    server.use(
      http.untyped.post('*/api/api-keys', () =>
        HttpResponse.json({ error: 'validation_failed', message, errors: { name: [message] } }, { status: 422 }),
      ),
    );
    const { user } = renderApp('/account/integrations');
    await user.click(await screen.findByRole('button', { name: 'Create API key' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'Zapier');
    await user.click(dialog.getByRole('button', { name: 'Create key' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(message);
    expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(message);
    expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('status', { hidden: true })).toHaveTextContent('Could not create the key');
  });

  it('asks for a name before sending anything', async () => {
    signInAs();
    const { user } = renderApp('/account/integrations');
    await user.click(await screen.findByRole('button', { name: 'Create API key' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.click(dialog.getByRole('button', { name: 'Create key' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Enter a name');
    expect(db.integrations.apiKeys).toHaveLength(0);
  });

  it('revokes a key only after the confirm dialog', async () => {
    signInAs();
    db.integrations.apiKeys = [KEY];
    const deleted: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'DELETE') deleted.push(new URL(request.url).pathname);
    });
    const { user } = renderApp('/account/integrations');
    const row = await keyRow('Accounting system');
    await user.click(row.getByRole('button', { name: 'Revoke Accounting system' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Revoke Accounting system?')).toBeInTheDocument();
    expect(dialog.getByText('Systems using this key stop working at once.')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleted).toEqual([]);

    await user.click(row.getByRole('button', { name: 'Revoke Accounting system' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByRole('status')).toHaveTextContent('API key revoked');
    expect(deleted).toEqual(['/api/api-keys/key-a']);
    expect(await screen.findByText(/No API keys yet/)).toBeInTheDocument();
  });

  it("shows the server's message when revoking fails", async () => {
    signInAs();
    db.integrations.apiKeys = [KEY];
    server.use(
      http.untyped.delete('*/api/api-keys/:id', () =>
        HttpResponse.json({ error: 'not_found', message: 'This key was revoked already.' }, { status: 404 }),
      ),
    );
    const { user } = renderApp('/account/integrations');
    await user.click((await keyRow('Accounting system')).getByRole('button', { name: /Revoke/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByRole('status')).toHaveTextContent('This key was revoked already.');
  });
});
