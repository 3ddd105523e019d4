import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildDocument } from '@/testing/mocks/fixtures';
import { recordGets, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

/** Seven documents of two vendors, doc-1 the newest. */
function seed() {
  signInAs();
  db.documents = Array.from({ length: 7 }, (_, i) =>
    buildDocument({
      id: `doc-${i + 1}`,
      fileName: `file-${String.fromCharCode(103 - i)}.pdf`,
      vendor: i % 2 ? 'Bolt Electric' : 'Acme Plumbing',
      uploadedAt: new Date(Date.UTC(2025, 2, 20 - i)).toISOString(),
    }),
  );
}

const table = () => screen.getByRole('table', { name: 'Documents' });
const files = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map(
      (row) =>
        within(row)
          .getAllByRole('cell')[1]
          ?.textContent?.match(/file-\w\.pdf/)?.[0],
    );

async function openDocuments() {
  const requests = recordGets('/api/documents');
  const app = renderApp('/documents');
  await screen.findByRole('table', { name: 'Documents' });
  return { ...app, requests };
}

describe('documents page, paged on the server', () => {
  it("asks for a page of 5 in the server's order (newest first), then the next", async () => {
    seed();
    const { user, requests } = await openDocuments();
    expect(new Set(requests.map((r) => JSON.stringify(r)))).toEqual(new Set(['{"limit":"5","offset":"0"}']));
    expect(files()).toEqual(['file-g.pdf', 'file-f.pdf', 'file-e.pdf', 'file-d.pdf', 'file-c.pdf']);
    expect(screen.getByText('Showing 1 to 5 of 7 entries')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(files()).toEqual(['file-b.pdf', 'file-a.pdf']));
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '5' });
    expect(screen.getByText('Showing 6 to 7 of 7 entries')).toBeInTheDocument();
  });

  it('sorts by a column on the server, ascending then descending', async () => {
    seed();
    const { user, requests } = await openDocuments();
    await user.click(screen.getByRole('button', { name: 'File Name' }));
    await waitFor(() => expect(files()[0]).toBe('file-a.pdf'));
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', sort: 'fileName' });
    await user.click(screen.getByRole('button', { name: 'File Name' }));
    await waitFor(() => expect(files()[0]).toBe('file-g.pdf'));
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', sort: '-fileName' });
    for (const [header, key] of [
      ['Document Type', 'documentType'],
      ['Uploaded', 'uploadedAt'],
      ['Expiration', 'expirationDate'],
      ['Status', 'status'],
    ]) {
      await user.click(screen.getByRole('button', { name: header }));
      await waitFor(() => expect(requests.at(-1)?.sort).toBe(key));
    }
  });

  it('sends a suggestion picked by its label as the code the server matches', async () => {
    seed();
    db.documents.push(
      buildDocument({ id: 'doc-gl', fileName: 'liability.pdf', documentType: 'coi', coiType: 'general_liability' }),
    );
    const { user, requests } = await openDocuments();
    await user.type(screen.getByPlaceholderText('Search by document type...'), 'General Liability');
    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(2));
    expect(within(table()).getByText('liability.pdf')).toBeInTheDocument();
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', q: 'general_liability' });
  });

  it('filters by status on the server; Missing asks nothing (no current document is missing)', async () => {
    seed();
    db.documents[3] = { ...db.documents[3]!, status: 'expired' };
    const { user, requests } = await openDocuments();
    await user.click(screen.getByRole('button', { name: /Filter by status/ }));
    await user.click(await screen.findByRole('option', { name: 'Expired' }));
    await waitFor(() => expect(files()).toEqual(['file-d.pdf']));
    expect(requests.at(-1)).toEqual({ limit: '5', offset: '0', status: 'expired' });

    const before = requests.length;
    await user.click(screen.getByRole('button', { name: /Filter by status/ }));
    await user.click(await screen.findByRole('option', { name: 'Missing' }));
    expect(await screen.findByText('No documents found')).toBeInTheDocument();
    expect(screen.getByText('Try changing your search or filter criteria')).toBeInTheDocument();
    expect(requests.length).toBe(before);
  });
});
