import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildDocument, buildVendor } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

describe('vendor detail: bulk actions on the documents', () => {
  it('selects the vendor documents and deletes them after one confirmation', async () => {
    signInAs();
    db.plan = { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null };
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
    db.documents = [
      buildDocument({ id: 'doc-a', vendorId: 'AAAAAAA1', fileName: 'w9.pdf' }),
      buildDocument({ id: 'doc-b', vendorId: 'AAAAAAA1', fileName: 'agreement.pdf', documentType: 'vendor_agreement' }),
    ];
    const { user } = renderApp('/vendors/AAAAAAA1');
    const table = await screen.findByRole('table', { name: 'Vendor documents' });
    await user.click(within(table).getByRole('checkbox', { name: 'Select all on this page' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(bar).toHaveTextContent('2 selected');
    expect(within(table).getByRole('checkbox', { name: 'Select w9.pdf' })).toBeChecked();
    await user.click(within(bar).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete 2 documents?' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByRole('status')).toHaveTextContent('2 documents deleted');
    expect(await screen.findByText('No documents')).toBeInTheDocument();
    await waitFor(() => expect(db.documents).toEqual([]));
  });
});
