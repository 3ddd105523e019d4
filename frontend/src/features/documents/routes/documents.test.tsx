import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildDocument } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

describe('documents page', () => {
  it('searches by document type and filters by status', async () => {
    signInAs();
    db.documents = [
      buildDocument({ fileName: 'w9-acme.pdf', documentType: 'w9', status: 'current' }),
      buildDocument({ fileName: 'auto.pdf', documentType: 'coi', coiType: 'automobile', status: 'expired', vendor: 'Bolt' }),
    ];
    const { user } = renderApp('/documents');
    const table = await screen.findByRole('table', { name: 'Documents' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const search = screen.getByPlaceholderText('Search by document type...');
    await user.type(search, 'Automobile');
    await waitFor(() => expect(within(table).queryByText('w9-acme.pdf')).not.toBeInTheDocument());
    expect(within(table).getByText('auto.pdf')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'w9');
    expect(await within(table).findByText('w9-acme.pdf')).toBeInTheDocument();
    expect(within(table).queryByText('auto.pdf')).not.toBeInTheDocument();
    await user.clear(search);
    await user.click(screen.getByRole('button', { name: /Filter by status/ }));
    await user.click(await screen.findByRole('option', { name: 'Missing' }));
    expect(await screen.findByText('No documents found')).toBeInTheDocument();
    expect(screen.getByText('Try changing your search or filter criteria')).toBeInTheDocument();
  });

  it('offers the type suggestions', async () => {
    signInAs();
    const { container } = renderApp('/documents');
    await screen.findByText('No documents found');
    const options = [...container.querySelectorAll('datalist option')].map((o) => o.getAttribute('value'));
    expect(options).toEqual([
      'coi',
      'w9',
      'sales_tax',
      'vendor_agreement',
      'other',
      'General Liability',
      'Workers Compensation',
      'Automobile',
    ]);
  });
});
