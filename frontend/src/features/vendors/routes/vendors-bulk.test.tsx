import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/testing/mocks/db';
import { installFakeXhr, type FakeXhr } from '@/testing/fake-xhr';
import { buildVendor } from '@/testing/mocks/fixtures';
import { answerImportXhr } from '@/testing/mocks/vendor-import';
import { server } from '@/testing/mocks/server';
import { fireEvent, recordGets, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

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

describe('vendors: set requirements in bulk', () => {
  const SETS = [
    { id: 'set-1', name: 'Contractors', lines: [], vendorCount: 0 },
    { id: 'set-2', name: 'Suppliers', lines: [], vendorCount: 0 },
  ];

  function recordAssignments() {
    const bodies: unknown[] = [];
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/api/vendors/requirement-set')) bodies.push(await request.clone().json());
    });
    return bodies;
  }

  it('gives the selected vendors a set, refreshes the list and says how many', async () => {
    seed();
    db.requirementSets = SETS.map((set) => ({ ...set }));
    const bodies = recordAssignments();
    const { user } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select Acme Plumbing' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Clear Cleaning' }));
    const gets = recordGets('/api/vendors');
    await user.click(within(bar()).getByRole('button', { name: 'Set requirements' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Set requirements' }));
    expect(dialog.getByText(/the 2 selected vendors must carry/)).toBeInTheDocument();
    const apply = dialog.getByRole('button', { name: 'Apply' });
    expect(apply).toBeDisabled();
    await user.click(await dialog.findByRole('button', { name: /Requirement set/ }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Contractors', 'Suppliers', 'No requirements']);
    await user.click(screen.getByRole('option', { name: 'Contractors' }));
    await user.click(apply);
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Requirements set for 2 vendors');
    expect(status).toHaveAttribute('data-variant', 'success');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([{ ids: ['AAAAAAA1', 'CCCCCCC3'], requirementSetId: 'set-1' }]);
    expect(db.vendors.map((v) => v.requirementSetId)).toEqual(['set-1', null, 'set-1']);
    // The list is read again: its gap badges and the With Gaps filter depend on the sets.
    await waitFor(() => expect(gets.length).toBeGreaterThan(0));
  });

  it('works on the Free plan, without the upgrade prompt; "No requirements" sends null', async () => {
    seed({ plan: 'free' });
    db.requirementSets = SETS.map((set) => ({ ...set }));
    db.vendors[1]!.requirementSetId = 'set-2';
    const bodies = recordAssignments();
    const { user } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select Bolt Electric' }));
    await user.click(within(bar()).getByRole('button', { name: 'Set requirements' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Set requirements' }));
    expect(dialog.getByText(/the selected vendor must carry/)).toBeInTheDocument();
    await user.click(await dialog.findByRole('button', { name: /Requirement set/ }));
    await user.click(await screen.findByRole('option', { name: 'No requirements' }));
    await user.click(dialog.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Requirements set for 1 vendor');
    expect(screen.queryByRole('dialog', { name: 'Upgrade to Professional' })).not.toBeInTheDocument();
    expect(bodies).toEqual([{ ids: ['BBBBBBB2'], requirementSetId: null }]);
    expect(db.vendors[1]!.requirementSetId).toBeNull();
  });

  it('says when the organization has no sets and links to the Requirements page', async () => {
    seed();
    const { user, router } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select Acme Plumbing' }));
    await user.click(within(bar()).getByRole('button', { name: 'Set requirements' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Set requirements' }));
    expect(await dialog.findByText(/Your organization has no requirement sets yet/)).toBeInTheDocument();
    expect(dialog.queryByRole('button', { name: 'Apply' })).not.toBeInTheDocument();
    const link = dialog.getByRole('link', { name: 'Create one on the Requirements page' });
    expect(link).toHaveAttribute('href', '/account/requirements');
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/requirements'));
  });

  it('reports a 404 with the bulk failure toast and changes nothing', async () => {
    seed();
    db.requirementSets = SETS.map((set) => ({ ...set }));
    server.use(
      http.post('/api/vendors/requirement-set', () =>
        HttpResponse.json({ error: 'not_found', message: 'One or more vendors were not found.' }, { status: 404 }),
      ),
    );
    const { user } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select Acme Plumbing' }));
    await user.click(within(bar()).getByRole('button', { name: 'Set requirements' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Set requirements' }));
    await user.click(await dialog.findByRole('button', { name: /Requirement set/ }));
    await user.click(await screen.findByRole('option', { name: 'Suppliers' }));
    await user.click(dialog.getByRole('button', { name: 'Apply' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Setting requirements failed');
    expect(status).toHaveTextContent('One or more vendors were not found. Nothing was changed.');
    expect(db.vendors.every((v) => v.requirementSetId === null)).toBe(true);
  });

  it('is not offered to a viewer', async () => {
    seed();
    signInAs({ email: 'vera@example.com', orgRole: 'viewer' });
    const { user } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select Acme Plumbing' }));
    expect(within(bar()).getByRole('button', { name: 'Send renewal requests' })).toBeDisabled();
    expect(within(bar()).queryByRole('button', { name: 'Set requirements' })).not.toBeInTheDocument();
  });
});

const csvFile = (text: string, name = 'vendors.csv') => new File([text], name, { type: 'text/csv' });

/** What each call to the import sent: its form's fields, a file by its name. */
function importCalls(xhr: typeof FakeXhr) {
  return xhr.requests.map((request) =>
    Object.fromEntries([...request.body!.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${v.name}`])),
  );
}

describe('vendors: CSV', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('previews an import, flags duplicates and errors, then imports the good rows', async () => {
    seed({ plan: 'free' });
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing', email: 'acme@example.com' })];
    const xhr = installFakeXhr(answerImportXhr);
    const { user } = await openVendors();
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Vendors' });
    expect(dialog).toHaveAccessibleDescription(
      'Choose a CSV file with a header line and one vendor per line, in the columns Export CSV writes. ' +
        'An optional Requirement set column names one of your requirement sets.',
    );
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
    // The rows with problems come first, each with its line.
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual(['3', '4', '5', '2']);
    expect(rows[0]).toHaveTextContent('Duplicate');
    expect(rows[0]).toHaveTextContent('A vendor with this email already exists');
    expect(rows[1]).toHaveTextContent('Vendor name is required');
    // One more vendor fits the Free plan's 2: the last good row is refused with the limit's sentence.
    expect(rows[2]).toHaveTextContent('Free accounts are limited to 2 vendors maximum.');
    expect(rows[3]).toHaveTextContent('Dana Drywall');
    expect(rows[3]).toHaveTextContent('Will be created');
    expect(within(dialog).getByText('1 of 4 rows will be created.')).toBeInTheDocument();
    expect(db.vendors).toHaveLength(1);

    await user.click(within(dialog).getByRole('button', { name: 'Import 1 vendor' }));
    expect(await screen.findByRole('status')).toHaveTextContent('1 vendor imported');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Dana Drywall')).toBeInTheDocument();
    expect(importCalls(xhr)).toEqual([
      { file: 'file:vendors.csv', commit: 'false' },
      { file: 'file:vendors.csv', commit: 'true' },
    ]);
  });

  it("shows the server's reason for a malformed file and imports nothing", async () => {
    seed();
    installFakeXhr(answerImportXhr);
    const { user } = await openVendors();
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Vendors' });
    await user.upload(within(dialog).getByLabelText('CSV file'), csvFile('just some text'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The file has no header row naming its columns (such as Name and Email).',
    );
    expect(within(dialog).getByRole('button', { name: 'Import 0 vendors' })).toBeDisabled();
  });

  it('refuses a file that is not a CSV before sending it, and says how to save a workbook', async () => {
    seed();
    const xhr = installFakeXhr(answerImportXhr);
    const { user } = renderApp('/vendors');
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Vendors' });
    const input = within(dialog).getByLabelText('CSV file');
    fireEvent.change(input, { target: { files: [new File(['x'], 'vendors.xlsx')] } });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Please select a valid CSV file');
    expect(alert).toHaveTextContent('Excel workbooks must be saved as CSV first');
    fireEvent.change(input, { target: { files: [new File(['x'], 'vendors.pdf')] } });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Please select a valid CSV file$/);
    expect(xhr.requests).toHaveLength(0);
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

  it('exports the vendors as an Excel workbook', async () => {
    seed();
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:mock'), revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const asked: URL[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.url.includes('/api/vendors/export')) asked.push(new URL(request.url));
    });
    const { user } = await openVendors();
    await user.click(screen.getByRole('button', { name: 'Export Excel' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Download started');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(/^vendors-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(asked.map((url) => url.search)).toEqual(['?format=xlsx']);
  });
});
