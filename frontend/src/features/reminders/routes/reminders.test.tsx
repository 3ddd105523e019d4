import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildReminder } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, within } from '@/testing/test-utils';

describe('reminders', () => {
  it('lists reminders with formatted dates and Sent/Pending', async () => {
    signInAs();
    db.reminders = [
      buildReminder({ reminderDate: '2025-03-01', sent: true, sentAt: '2025-03-01T15:07:00Z' }),
      buildReminder({
        reminderDate: 'garbage',
        sent: false,
        document: {
          id: 'd2',
          vendor: 'Bolt Electrical',
          vendorId: 'BBBBBBB2',
          documentType: 'w9',
          fileName: 'w9.pdf',
          expirationDate: null,
          status: 'current',
        },
      }),
    ];
    renderApp('/reminders');
    const table = await screen.findByRole('table', { name: 'Reminders' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Vendor', 'Document', 'Expiration Date', 'Reminder Date', 'Status', 'Reminder']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const byVendor = (name: string) => rows.find((r) => r.textContent?.includes(name))!;
    expect(byVendor('Acme Plumbing')).toHaveTextContent('Mar 31, 2025');
    expect(byVendor('Acme Plumbing')).toHaveTextContent('Mar 1, 2025');
    expect(byVendor('Acme Plumbing')).toHaveTextContent('Sent');
    expect(byVendor('Acme Plumbing')).toHaveTextContent(/Mar 1, 2025 - \d{1,2}:07 (AM|PM)/);
    expect(byVendor('Bolt Electrical')).toHaveTextContent('N/A');
    expect(byVendor('Bolt Electrical')).toHaveTextContent('Invalid date');
    expect(byVendor('Bolt Electrical')).toHaveTextContent('Pending');
  });

  it('explains the empty state', async () => {
    signInAs();
    renderApp('/reminders');
    expect(await screen.findByText('No reminders')).toBeInTheDocument();
    expect(
      screen.getByText('Reminders are automatically created when you add documents with expiration dates'),
    ).toBeInTheDocument();
  });
});
