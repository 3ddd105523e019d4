import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildVendor } from '@/testing/mocks/fixtures';
import { vendorList } from '@/testing/mocks/handlers/lists';
import { server } from '@/testing/mocks/server';
import { fireEvent, recordGets, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

/** `count` vendors, 'Vendor 01' first by name; the later ones were updated more recently. */
function seed(count = 12) {
  signInAs();
  db.plan = { plan: 'professional', vendorLimit: 1000, documentLimitPerVendor: null };
  const width = String(count).length;
  db.vendors = Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(width, '0');
    return buildVendor({
      id: `V${n.padStart(7, '0')}`,
      name: `Vendor ${n}`,
      email: `vendor${n}@example.com`,
      updatedAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
    });
  });
}

const table = () => screen.getByRole('table', { name: 'Vendors' });
const names = () =>
  within(table())
    .getAllByRole('link')
    .map((a) => a.textContent);
const bar = () => screen.getByRole('region', { name: 'Bulk actions' });

async function openVendors() {
  const requests = recordGets('/api/vendors');
  const app = renderApp('/vendors');
  await screen.findByRole('table', { name: 'Vendors' });
  return { ...app, requests };
}

describe('vendors list, paged on the server', () => {
  it('asks for one page of 5 and reads the total from X-Total-Count', async () => {
    seed();
    const { user, requests } = await openVendors();
    // (The route's loader may have asked before the page did: the same page.)
    expect(new Set(requests.map((r) => JSON.stringify(r)))).toEqual(new Set(['{"limit":"5","offset":"0"}']));
    expect(names()).toEqual(['Vendor 01', 'Vendor 02', 'Vendor 03', 'Vendor 04', 'Vendor 05']);
    expect(screen.getByText('Showing 1 to 5 of 12 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(names()[0]).toBe('Vendor 06'));
    expect(screen.getByText('Showing 6 to 10 of 12 entries')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(names()).toEqual(['Vendor 11', 'Vendor 12']));
    expect(screen.getByText('Showing 11 to 12 of 12 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect([...new Set(requests.map((r) => r.offset))]).toEqual(['0', '5', '10']);
    expect(requests.every((r) => r.limit === '5')).toBe(true);
  });

  it('keeps the page on show, busy, while the next one loads', async () => {
    seed();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/vendors', async ({ request }) => {
        const url = new URL(request.url);
        if (url.searchParams.get('offset') === '5') await gate;
        return vendorList(url);
      }),
    );
    const { user } = await openVendors();
    expect(table()).not.toHaveAttribute('aria-busy');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(table()).toHaveAttribute('aria-busy', 'true');
    expect(names()[0]).toBe('Vendor 01');
    expect(screen.queryByText('Loading vendors')).not.toBeInTheDocument();
    release();
    await waitFor(() => expect(names()[0]).toBe('Vendor 06'));
    expect(table()).not.toHaveAttribute('aria-busy');
  });

  it('sorts on the server: a first click ascending, a second descending, from the first page', async () => {
    seed();
    const { user, requests } = await openVendors();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(names()[0]).toBe('Vendor 06'));

    await user.click(screen.getByRole('button', { name: 'Last Updated' }));
    await waitFor(() => expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', sort: 'updatedAt' }));
    expect(screen.getByRole('columnheader', { name: 'Last Updated' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: 'Last Updated' }));
    await waitFor(() => expect(names()[0]).toBe('Vendor 12'));
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', sort: '-updatedAt' });
    expect(screen.getByRole('columnheader', { name: 'Last Updated' })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByText('Showing 1 to 5 of 12 entries')).toBeInTheDocument();

    for (const [header, key] of [
      ['Vendor', 'name'],
      ['Service Type', 'serviceType'],
      ['Status', 'status'],
      ['Documents', 'documentCount'],
    ]) {
      await user.click(screen.getByRole('button', { name: header }));
      await waitFor(() => expect(requests.at(-1)?.sort).toBe(key));
    }
    // The row menus' column has no key: nothing to click.
    expect(screen.getByRole('columnheader', { name: 'Actions' })).not.toHaveAttribute('aria-sort');
  });

  it('sends the search once typing pauses, and starts again at the first page', async () => {
    seed();
    const { user, requests } = await openVendors();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(names()[0]).toBe('Vendor 06'));
    const before = requests.length;

    // Keystrokes in quick succession (no time passes between them): one request, for the last.
    const search = screen.getByPlaceholderText('Search vendors...');
    for (const typed of [' ', '  V', '  Ven', '  Vendor', '  Vendor 1']) fireEvent.change(search, { target: { value: typed } });
    expect(requests.length).toBe(before);
    await waitFor(() => expect(names()).toEqual(['Vendor 10', 'Vendor 11', 'Vendor 12']));
    expect(requests.slice(before)).toEqual([{ limit: '5', offset: '0', q: 'Vendor 1' }]);
    expect(screen.getByText('Showing 1 to 3 of 3 entries')).toBeInTheDocument();
  });

  it('filters by status on the server', async () => {
    seed();
    db.vendors[6] = { ...db.vendors[6]!, documentStatus: 'expired' };
    const { user, requests } = await openVendors();
    await user.click(screen.getByRole('button', { name: /Filter by status/ }));
    await user.click(await screen.findByRole('option', { name: 'Expired' }));
    await waitFor(() => expect(names()).toEqual(['Vendor 07']));
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', status: 'expired' });
  });

  it('goes back to the last page with rows when a delete empties the one on show', async () => {
    seed(6);
    const { user } = await openVendors();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(names()).toEqual(['Vendor 6']));
    await user.click(screen.getByRole('button', { name: 'Actions for Vendor 6' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(names()).toHaveLength(5));
    expect(screen.getByText('Showing 1 to 5 of 5 entries')).toBeInTheDocument();
  });
});

describe('vendors list: selection across pages', () => {
  it('keeps the rows picked on other pages, and sends them all', async () => {
    seed();
    let sent: unknown = null;
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/api/vendors/renewal-requests')) sent = await request.clone().json();
    });
    const { user } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select Vendor 02' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Select Vendor 07' }));
    expect(bar()).toHaveTextContent('2 selected');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByRole('checkbox', { name: 'Select Vendor 02' })).toBeChecked();
    await user.click(within(bar()).getByRole('button', { name: 'Send renewal requests' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Renewal requests sent to 2 vendors');
    expect(sent).toEqual({ ids: ['V0000002', 'V0000007'] });
  });

  it('keeps the picks through a new sort order, and drops them for a new search', async () => {
    seed();
    const { user } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select Vendor 02' }));
    await user.click(screen.getByRole('button', { name: 'Last Updated' }));
    await user.click(screen.getByRole('button', { name: 'Last Updated' }));
    await waitFor(() => expect(names()[0]).toBe('Vendor 12'));
    expect(bar()).toHaveTextContent('1 selected');
    await user.type(screen.getByPlaceholderText('Search vendors...'), 'Vendor');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument());
  });

  it("'Select all N matching' reads the matching vendors once", async () => {
    seed();
    const { user, requests } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    expect(bar()).toHaveTextContent('5 selected');
    await user.click(screen.getByRole('button', { name: 'Select all 12 matching' }));
    expect(await screen.findByText('All 12 matching are selected.')).toBeInTheDocument();
    expect(bar()).toHaveTextContent('12 selected');
    expect(requests.at(-1)).toEqual({ limit: '12', offset: '0' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('checkbox', { name: 'Select Vendor 06' })).toBeChecked();
  });

  it('over the bulk limit, selects them all without reading them, and keeps the actions off', async () => {
    seed(501);
    const { user, requests } = await openVendors();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 501 matching' }));
    expect(screen.getByText('All 501 matching are selected.')).toBeInTheDocument();
    expect(bar()).toHaveTextContent('501 selected');
    expect(bar()).toHaveTextContent('Select at most 500 at a time.');
    expect(within(bar()).getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(requests.every((r) => r.limit === '5')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    const box = await screen.findByRole('checkbox', { name: 'Select Vendor 006' });
    expect(box).toBeChecked();
    // Down to what one call takes: now the ids are read, all but the unticked one.
    await user.click(box);
    expect(bar()).toHaveTextContent('500 selected');
    await waitFor(() => expect(within(bar()).getByRole('button', { name: 'Delete' })).toBeEnabled());
    expect(requests.at(-1)).toEqual({ limit: '501', offset: '0' });
    expect(box).not.toBeChecked();
    expect(bar()).toHaveTextContent('500 selected');
  });
});

describe('dashboard: vendor compliance table, paged on the server', () => {
  it("pages by 5 and says 'No results found.' when the search matches nothing", async () => {
    seed();
    const requests = recordGets('/api/vendors');
    const { user } = renderApp('/dashboard');
    const compliance = await screen.findByRole('table', { name: 'Vendor Compliance Status' });
    expect(await screen.findByText('Showing 1 to 5 of 12 entries')).toBeInTheDocument();
    expect(within(compliance).getAllByRole('list', { name: 'Document slots' })).toHaveLength(5);
    // The table's first page only (the loader's and the table's): the charts read the stats.
    expect(new Set(requests.map((r) => JSON.stringify(r)))).toEqual(new Set(['{"limit":"5","offset":"0"}']));

    await user.type(screen.getByPlaceholderText('Search vendors...'), 'nobody');
    expect(await within(compliance).findByText('No results found.')).toBeInTheDocument();
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', q: 'nobody' });
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
  });
});
