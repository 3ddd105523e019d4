import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildVendor } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

async function openForm() {
  signInAs();
  const app = renderApp('/vendors/new');
  await screen.findByRole('form', { name: 'Add New Vendor' });
  return app;
}

describe('Add New Vendor', () => {
  it('generates an 8-character key and a new one on request', async () => {
    const { user } = await openForm();
    const key = screen.getByTestId('company-key');
    expect(key).toHaveAttribute('readonly');
    const first = (key as HTMLInputElement).value;
    expect(first).toMatch(/^[A-Za-z0-9]{8}$/);
    await user.click(screen.getByRole('button', { name: 'Generate New Key' }));
    expect((key as HTMLInputElement).value).toMatch(/^[A-Za-z0-9]{8}$/);
    expect((key as HTMLInputElement).value).not.toBe(first);
    expect(screen.getByRole('link', { name: 'Back to Vendors' })).toHaveAttribute('href', '/vendors');
  });

  it("asks for the required fields with 'Missing information'", async () => {
    const { user } = await openForm();
    await user.click(screen.getByRole('button', { name: 'Add Vendor' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Missing information');
    expect(status).toHaveTextContent('Please fill in all required fields (name, email, service type)');
    expect(db.vendors).toEqual([]);
  });

  it('creates the vendor with the key and requested documents, then opens it', async () => {
    const { user, router } = await openForm();
    const key = (screen.getByTestId('company-key') as HTMLInputElement).value;
    await user.type(screen.getByLabelText('Vendor Name*'), 'New Vendor Co');
    await user.type(screen.getByLabelText('Contact Email*'), 'hello@newvendor.test');
    await user.click(screen.getByRole('checkbox', { name: 'Other Documents' }));
    expect(screen.getByRole('button', { name: /Service Type/ })).toHaveTextContent('General Contractor');
    await user.click(screen.getByRole('button', { name: 'Add Vendor' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/vendors/${key}`));
    expect(db.vendors[0]).toMatchObject({
      id: key,
      name: 'New Vendor Co',
      serviceType: 'general-contractor',
      requiredDocuments: [
        'w9',
        'coi_general_liability',
        'coi_workers_comp',
        'coi_automobile',
        'sales_tax',
        'vendor_agreement',
        'other',
      ],
    });
  });

  it("shows 'Free Account Limit Reached' on 402", async () => {
    const { user } = await openForm();
    // Another tab filled the plan after this page loaded.
    db.vendors = [buildVendor({ id: 'AAAAAAA1' }), buildVendor({ id: 'BBBBBBB2' })];
    await user.type(screen.getByLabelText('Vendor Name*'), 'Third');
    await user.type(screen.getByLabelText('Contact Email*'), 'third@vendor.test');
    await user.click(screen.getByRole('button', { name: 'Add Vendor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Free Account Limit Reached' });
    expect(dialog).toHaveTextContent('Free accounts are limited to 2 vendors maximum.');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
  });

  it("shows the server's field errors with 'Error creating vendor'", async () => {
    const { user } = await openForm();
    await user.type(screen.getByLabelText('Vendor Name*'), 'Bad Email');
    await user.type(screen.getByLabelText('Contact Email*'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Add Vendor' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Error creating vendor');
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
  });

  it('disables Add Vendor at the plan limit', async () => {
    signInAs();
    db.vendors = [buildVendor({ id: 'AAAAAAA1' }), buildVendor({ id: 'BBBBBBB2' })];
    renderApp('/vendors/new');
    await screen.findByText('Free account limit reached');
    expect(screen.getByRole('button', { name: 'Add Vendor' })).toBeDisabled();
  });

  it('gives the new vendor the chosen requirement set, none by default', async () => {
    db.requirementSets = [{ id: 'set-a', name: 'Contractors', lines: [], vendorCount: 0 }];
    const { user, router } = await openForm();
    const select = screen.getByRole('button', { name: /Requirement set/ });
    await waitFor(() => expect(select).toBeEnabled());
    expect(select).toHaveTextContent('None');
    await user.type(screen.getByLabelText('Vendor Name*'), 'Set Vendor');
    await user.type(screen.getByLabelText('Contact Email*'), 'set@vendor.test');
    await user.click(select);
    await user.click(screen.getByRole('option', { name: 'Contractors' }));
    await user.click(screen.getByRole('button', { name: 'Add Vendor' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/vendors\/[A-Za-z0-9]{8}$/));
    expect(db.vendors[0]?.requirementSetId).toBe('set-a');
  });
});
