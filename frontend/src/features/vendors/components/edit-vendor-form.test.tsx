import { delay } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildVendor } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor } from '@/testing/test-utils';

describe('Edit Vendor', () => {
  it("shows the read-only Vendor ID, saves with 'Saving...' and returns to the vendor", async () => {
    signInAs();
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
    server.use(
      http.put('/api/vendors/{id}', async () => {
        await delay(50); // then the default handler
      }),
    );
    const { user, router } = renderApp('/vendors/AAAAAAA1/edit');
    const name = await screen.findByLabelText('Vendor Name*');
    expect(screen.getByLabelText('Vendor ID')).toHaveValue('AAAAAAA1');
    expect(screen.getByLabelText('Vendor ID')).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Generate New Key' })).not.toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'Acme Plumbing & Heating');
    await user.click(screen.getByRole('button', { name: 'Update Vendor' }));
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    await waitFor(() => expect(router.state.location.pathname).toBe('/vendors/AAAAAAA1'));
    expect(db.vendors[0]?.name).toBe('Acme Plumbing & Heating');
  });

  it('checks the email format', async () => {
    signInAs();
    db.vendors = [buildVendor({ id: 'AAAAAAA1' })];
    const { user } = renderApp('/vendors/AAAAAAA1/edit');
    const email = await screen.findByLabelText('Contact Email*');
    await user.clear(email);
    await user.type(email, 'nope');
    await user.click(screen.getByRole('button', { name: 'Update Vendor' }));
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
  });

  it('says when the vendor to edit does not exist', async () => {
    signInAs();
    renderApp('/vendors/MISSING1/edit');
    expect(await screen.findByText('Vendor not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Vendors' })).toHaveAttribute('href', '/vendors');
  });

  it('offers the requirement sets, None included, and saves the choice', async () => {
    signInAs();
    db.requirementSets = [
      { id: 'set-a', name: 'Contractors', lines: [], vendorCount: 0 },
      { id: 'set-b', name: 'Suppliers', lines: [], vendorCount: 0 },
    ];
    db.vendors = [buildVendor({ id: 'AAAAAAA1', requirementSetId: 'set-b' })];
    const { user, router } = renderApp('/vendors/AAAAAAA1/edit');
    const select = await screen.findByRole('button', { name: /Requirement set/ });
    await waitFor(() => expect(select).toHaveTextContent('Suppliers'));
    await user.click(select);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['None', 'Contractors', 'Suppliers']);
    await user.click(screen.getByRole('option', { name: 'Contractors' }));
    await user.click(screen.getByRole('button', { name: 'Update Vendor' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/vendors/AAAAAAA1'));
    expect(db.vendors[0]?.requirementSetId).toBe('set-a');
  });

  it('sends null for None', async () => {
    signInAs();
    db.requirementSets = [{ id: 'set-a', name: 'Contractors', lines: [], vendorCount: 1 }];
    db.vendors = [buildVendor({ id: 'AAAAAAA1', requirementSetId: 'set-a' })];
    const { user, router } = renderApp('/vendors/AAAAAAA1/edit');
    const select = await screen.findByRole('button', { name: /Requirement set/ });
    await waitFor(() => expect(select).toHaveTextContent('Contractors'));
    await user.click(select);
    await user.click(screen.getByRole('option', { name: 'None' }));
    await user.click(screen.getByRole('button', { name: 'Update Vendor' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/vendors/AAAAAAA1'));
    expect(db.vendors[0]?.requirementSetId).toBeNull();
  });
});
