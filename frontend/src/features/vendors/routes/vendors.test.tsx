import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildVendor } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

describe('vendors list', () => {
  it('invites to add the first vendor when there are none', async () => {
    signInAs();
    renderApp('/vendors');
    expect(await screen.findByText('No vendors found')).toBeInTheDocument();
    expect(screen.getByText('Get started by adding your first vendor')).toBeInTheDocument();
  });

  it('hints at the filters when a search finds nothing', async () => {
    signInAs();
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
    const { user } = renderApp('/vendors');
    await screen.findByRole('table', { name: 'Vendors' });
    await user.type(screen.getByPlaceholderText('Search vendors...'), 'zzz');
    expect(await screen.findByText('No vendors found')).toBeInTheDocument();
    expect(screen.getByText('Try changing your search or filter criteria')).toBeInTheDocument();
  });

  it('has the row menu and deletes after confirmation', async () => {
    signInAs();
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
    const { user } = renderApp('/vendors');
    await user.click(await screen.findByRole('button', { name: 'Actions for Acme Plumbing' }));
    expect(await screen.findByRole('menuitem', { name: 'View Details' })).toHaveAttribute('href', '/vendors/AAAAAAA1');
    expect(screen.getByRole('menuitem', { name: 'Documents' })).toHaveAttribute('href', '/vendors/AAAAAAA1/documents');
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toHaveAttribute('href', '/vendors/AAAAAAA1/edit');
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));

    const dialog = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(dialog).toHaveTextContent(
      'This action cannot be undone. This will permanently delete the vendor and all associated documents.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Vendor deleted');
    expect(screen.getByRole('status')).toHaveTextContent('The vendor has been successfully deleted.');
    expect(await screen.findByText('No vendors found')).toBeInTheDocument();
    expect(db.vendors).toEqual([]);
  });

  it("reports a failed delete as 'Failed to delete vendor: ...'", async () => {
    signInAs();
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
    server.use(
      http.delete('/api/vendors/{id}', () => HttpResponse.json({ error: 'boom', message: 'Database is down.' }, { status: 500 })),
    );
    const { user } = renderApp('/vendors');
    await user.click(await screen.findByRole('button', { name: 'Actions for Acme Plumbing' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Error');
    expect(status).toHaveTextContent('Failed to delete vendor: Database is down.');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
