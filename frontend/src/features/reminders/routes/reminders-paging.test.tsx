import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildReminder } from '@/testing/mocks/fixtures';
import { reminderList } from '@/testing/mocks/handlers/lists';
import { server } from '@/testing/mocks/server';
import type { DocumentStatus, Reminder } from '@/types/api';
import { recordGets, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

/** `count` reminders of 'Vendor 01' to 'Vendor NN', the last one's the soonest. */
function seed(count = 12) {
  signInAs();
  const width = String(count).length;
  db.reminders = Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(width, '0');
    return buildReminder({
      id: `rem-${n}`,
      reminderDate: new Date(Date.UTC(2025, 2, 1 + count - i)).toISOString().slice(0, 10),
      document: {
        id: `doc-${n}`,
        vendor: `Vendor ${n}`,
        vendorId: `V${n.padStart(7, '0')}`,
        documentType: 'coi',
        fileName: `coi-${n}.pdf`,
        expirationDate: '2025-06-30',
        status: 'current',
      },
    });
  });
}

const table = () => screen.getByRole('table', { name: 'Reminders' });
const vendors = () =>
  within(table())
    .getAllByRole('link')
    .map((a) => a.textContent);

async function openReminders() {
  const requests = recordGets('/api/reminders');
  const app = renderApp('/reminders');
  await screen.findByRole('table', { name: 'Reminders' });
  return { ...app, requests };
}

const FIRST_PAGE = '{"limit":"5","offset":"0","sort":"reminderDate"}';

describe('reminders, paged on the server', () => {
  it('asks for one page of 5, soonest first, and reads the total from X-Total-Count', async () => {
    seed();
    const { user, requests } = await openReminders();
    // (The route's loader may have asked before the page did: the same page.)
    expect(new Set(requests.map((r) => JSON.stringify(r)))).toEqual(new Set([FIRST_PAGE]));
    expect(screen.getByRole('columnheader', { name: 'Reminder Date' })).toHaveAttribute('aria-sort', 'ascending');
    expect(vendors()).toEqual(['Vendor 12', 'Vendor 11', 'Vendor 10', 'Vendor 09', 'Vendor 08']);
    expect(screen.getByText('Showing 1 to 5 of 12 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(vendors()[0]).toBe('Vendor 07'));
    expect(screen.getByText('Showing 6 to 10 of 12 entries')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(vendors()).toEqual(['Vendor 02', 'Vendor 01']));
    expect(screen.getByText('Showing 11 to 12 of 12 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(vendors()[0]).toBe('Vendor 07'));
    expect([...new Set(requests.map((r) => r.offset))]).toEqual(['0', '5', '10']);
    expect(requests.every((r) => r.limit === '5' && r.sort === 'reminderDate')).toBe(true);
  });

  it('keeps the page on show, busy, while the next one loads', async () => {
    seed();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/reminders', async ({ request }) => {
        const url = new URL(request.url);
        if (url.searchParams.get('offset') === '5') await gate;
        return reminderList(url);
      }),
    );
    const { user } = await openReminders();
    expect(table()).not.toHaveAttribute('aria-busy');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(table()).toHaveAttribute('aria-busy', 'true');
    expect(vendors()[0]).toBe('Vendor 12');
    expect(screen.queryByText('Loading reminders')).not.toBeInTheDocument();
    release();
    await waitFor(() => expect(vendors()[0]).toBe('Vendor 07'));
    expect(table()).not.toHaveAttribute('aria-busy');
  });

  it('sorts on the server: a first click ascending, a second descending, from the first page', async () => {
    seed();
    const { user, requests } = await openReminders();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(vendors()[0]).toBe('Vendor 07'));

    await user.click(screen.getByRole('button', { name: 'Vendor' }));
    await waitFor(() => expect(vendors()[0]).toBe('Vendor 01'));
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', sort: 'vendor' });
    expect(screen.getByRole('columnheader', { name: 'Vendor' })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: 'Reminder Date' })).toHaveAttribute('aria-sort', 'none');
    await user.click(screen.getByRole('button', { name: 'Vendor' }));
    await waitFor(() => expect(vendors()[0]).toBe('Vendor 12'));
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', sort: '-vendor' });
    expect(screen.getByRole('columnheader', { name: 'Vendor' })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByText('Showing 1 to 5 of 12 entries')).toBeInTheDocument();

    // Turned to page 2 in one order, a new order asks for page 1 again.
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(requests.at(-1)).toEqual({ limit: '5', offset: '5', sort: '-vendor' }));
    for (const [header, key] of [
      ['Document', 'documentType'],
      ['Expiration Date', 'expirationDate'],
      ['Reminder Date', 'reminderDate'],
      ['Status', 'status'],
      ['Reminder', 'sent'],
    ]) {
      await user.click(screen.getByRole('button', { name: header }));
      await waitFor(() => expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', sort: key }));
    }
    await user.click(screen.getByRole('button', { name: 'Reminder' }));
    await waitFor(() => expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', sort: '-sent' }));
  });

  it('orders Status by severity and Reminder by pending first, as the server answers', async () => {
    signInAs();
    const reminder = (vendor: string, status: DocumentStatus, sent: boolean): Reminder =>
      buildReminder({
        id: `rem-${vendor}`,
        sent,
        document: { ...buildReminder().document, vendor, status },
      });
    db.reminders = [
      reminder('Expired Co', 'expired', true),
      reminder('Current Co', 'current', false),
      reminder('Expiring Co', 'expiring_soon', true),
    ];
    const { user } = await openReminders();
    await user.click(screen.getByRole('button', { name: 'Status' }));
    await waitFor(() => expect(vendors()).toEqual(['Current Co', 'Expiring Co', 'Expired Co']));
    await user.click(screen.getByRole('button', { name: 'Status' }));
    await waitFor(() => expect(vendors()).toEqual(['Expired Co', 'Expiring Co', 'Current Co']));
    await user.click(screen.getByRole('button', { name: 'Reminder' }));
    await waitFor(() => expect(vendors()[0]).toBe('Current Co'));
  });

  it("says 'No reminders' when the server has none, with no table and no pager", async () => {
    signInAs();
    const requests = recordGets('/api/reminders');
    renderApp('/reminders');
    expect(await screen.findByText('No reminders')).toBeInTheDocument();
    expect(
      screen.getByText('Reminders are automatically created when you add documents with expiration dates'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Reminders' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
    expect(new Set(requests.map((r) => JSON.stringify(r)))).toEqual(new Set([FIRST_PAGE]));
  });
});

describe('GET /api/reminders (the mock, as the server answers)', () => {
  const ask = (query: string) => reminderList(new URL(`http://localhost/api/reminders${query}`));
  const ids = async (response: Response) => ((await response.json()) as Reminder[]).map((r) => r.id);

  it('cuts the page with limit and offset and counts every reminder in X-Total-Count', async () => {
    seed(7);
    const response = ask('?limit=5&offset=5');
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Total-Count')).toBe('7');
    expect(await ids(response)).toEqual(['rem-2', 'rem-1']);
  });

  it('sorts ties by id in the direction asked, and puts no expiration date last either way', async () => {
    seed(3);
    db.reminders[1] = { ...db.reminders[1]!, document: { ...db.reminders[1]!.document, expirationDate: null } };
    expect(await ids(ask('?sort=expirationDate'))).toEqual(['rem-1', 'rem-3', 'rem-2']);
    expect(await ids(ask('?sort=-expirationDate'))).toEqual(['rem-3', 'rem-1', 'rem-2']);
    expect(await ids(ask('?sort=-reminderDate'))).toEqual(['rem-1', 'rem-2', 'rem-3']);
  });

  it('refuses an unknown sort with a 422 naming sort', async () => {
    seed(3);
    for (const sort of ['name', '-', 'reminder_date', '--vendor']) {
      const response = ask(`?sort=${sort}`);
      expect(response.status).toBe(422);
      expect(JSON.stringify(await response.json())).toContain('"sort"');
    }
  });
});
