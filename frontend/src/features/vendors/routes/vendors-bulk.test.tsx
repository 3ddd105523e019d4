import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildVendor } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { fireEvent, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

function seed({ plan = 'professional' }: { plan?: 'free' | 'professional' } = {}) {
  signInAs();
  db.plan =
    plan === 'professional'
      ? { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null }
      : { plan: 'free', vendorLimit: 2, documentLimitPerVendor: 10 };
  db.vendors = [
    buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing', email: 'acme@example.com' }),
    buildVendor({ id: 'BBBBBBB2', name: 'Bolt Electric', email: 'bolt@example.com' }),
    buildVendor({ id: 'CCCCCCC3', name: 'Clear Cleaning', email: 'clear@example.com' }),
  ];
}

const bar = () => screen.getByRole('region', { name: 'Bulk actions' });

async function openVendors() {
  const app = renderApp('/vendors');
  await screen.findByRole('table', { name: 'Vendors' });
  return app;
}

afterEach(() => {
  server.events.removeAllListeners();
  vi.restoreAllMocks();
});

describe('vendors: bulk actions', () => {
  it('sends renewal requests and names the vendors already asked today', async () => {
    seed();
    db.renewalRequests = ['BBBBBBB2'];
    let sent: unknown = null;
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/api/vendors/renewal-requests')) sent = await request.clone().json();
    });
    const { user } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    expect(bar()).toHaveTextContent('3 selected');
    await user.click(within(bar()).getByRole('button', { name: 'Send renewal requests' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Renewal requests sent to 2 vendors');
    expect(status).toHaveTextContent('Bolt Electric: already asked today');
    expect(sent).toEqual({ ids: ['AAAAAAA1', 'BBBBBBB2', 'CCCCCCC3'] });
  });

  it('offers a Free organization the upgrade prompt instead of sending', async () => {
    seed({ plan: 'free' });
    const { user } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select Acme Plumbing' }));
    await user.click(within(bar()).getByRole('button', { name: 'Send renewal requests' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Professional' });
    expect(within(dialog).getByRole('button', { name: 'Upgrade Now' })).toBeInTheDocument();
    expect(db.renewalRequests).toEqual([]);
  });

  it('deletes the selected vendors after "Delete N vendors?"', async () => {
    seed();
    const { user } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select Acme Plumbing' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Clear Cleaning' }));
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 vendors?' });
    expect(dialog).toHaveTextContent('This will permanently delete the selected vendors and all associated documents.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('2 vendors deleted');
    await waitFor(() => expect(screen.queryByText('Acme Plumbing')).not.toBeInTheDocument());
    expect(db.vendors.map((v) => v.id)).toEqual(['BBBBBBB2']);
  });

  it('reports a 404 without deleting anything', async () => {
    seed();
    server.use(
      http.post('/api/vendors/bulk-delete', () =>
        HttpResponse.json({ error: 'not_found', message: 'One or more vendors were not found.' }, { status: 404 }),
      ),
    );
    const { user } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select Acme Plumbing' }));
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Delete failed');
    expect(status).toHaveTextContent('One or more vendors were not found. Nothing was changed.');
    expect(db.vendors).toHaveLength(3);
  });
});

const csvFile = (text: string, name = 'vendors.csv') => new File([text], name, { type: 'text/csv' });

describe('vendors: CSV', () => {
  it('previews an import, flags duplicates and errors, then imports the good rows', async () => {
    seed({ plan: 'free' });
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing', email: 'acme@example.com' })];
    const bodies: unknown[] = [];
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/api/vendors/import')) bodies.push(await request.clone().json());
    });
    const { user } = await openVendors();
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Vendors' });
    const csv = [
      'name,email,serviceType',
      'Dana Drywall,dana@example.com,general-contractor',
      'Acme Again,acme@example.com,plumbing',
      ',nobody@example.com,plumbing',
      'Evan Electric,evan@example.com,electrical',
    ].join('\n');
    await user.upload(within(dialog).getByLabelText('CSV file'), csvFile(csv));

    const preview = await within(dialog).findByRole('table', { name: 'Import preview' });
    const rows = within(preview).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toHaveTextContent('Dana Drywall');
    expect(rows[0]).toHaveTextContent('Will be created');
    expect(rows[1]).toHaveTextContent('Duplicate');
    expect(rows[1]).toHaveTextContent('A vendor with this email already exists');
    expect(rows[2]).toHaveTextContent('Name is required');
    // One more vendor fits the Free plan's 2: the last good row is refused with the limit's sentence.
    expect(rows[3]).toHaveTextContent('Free accounts are limited to 2 vendors maximum.');
    expect(within(dialog).getByText('1 of 4 rows will be created.')).toBeInTheDocument();
    expect(db.vendors).toHaveLength(1);

    await user.click(within(dialog).getByRole('button', { name: 'Import 1 vendor' }));
    expect(await screen.findByRole('status')).toHaveTextContent('1 vendor imported');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Dana Drywall')).toBeInTheDocument();
    expect(bodies).toEqual([
      { csv, commit: false },
      { csv, commit: true },
    ]);
  });

  it("shows the server's reason for a malformed file and imports nothing", async () => {
    seed();
    const { user } = await openVendors();
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Vendors' });
    await user.upload(within(dialog).getByLabelText('CSV file'), csvFile('just some text'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The first line must name the columns, including name and email.',
    );
    expect(within(dialog).getByRole('button', { name: 'Import 0 vendors' })).toBeDisabled();
  });

  it('refuses a file that is not a CSV before sending it', async () => {
    seed();
    const { user } = renderApp('/vendors');
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Vendors' });
    const input = within(dialog).getByLabelText('CSV file');
    fireEvent.change(input, { target: { files: [new File(['x'], 'vendors.xlsx')] } });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please select a valid CSV file');
  });

  it('exports the vendors as CSV', async () => {
    seed();
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:mock'), revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = await openVendors();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Download started');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(/^vendors-\d{4}-\d{2}-\d{2}\.csv$/);
  });
});
