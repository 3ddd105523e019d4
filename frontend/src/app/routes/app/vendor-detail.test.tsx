import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it, vi } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildDocument, buildVendor, slots } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

function seed() {
  signInAs();
  db.vendors = [
    buildVendor({
      id: 'AAAAAAA1',
      name: 'Acme Plumbing',
      email: 'office@acme.test',
      documentStatus: 'expiring_soon',
      slots: slots({ coi_general_liability: 'expiring_soon' }),
    }),
  ];
  db.documents = [
    buildDocument({
      id: 'doc-coi',
      vendorId: 'AAAAAAA1',
      fileName: 'gl-certificate.pdf',
      documentType: 'coi',
      coiType: 'general_liability',
      notes: 'COI Type: General Liability',
      expirationDate: '2025-03-31',
      status: 'expiring_soon',
    }),
  ];
}

describe('vendor detail', () => {
  it('shows the summary and the documents table', async () => {
    seed();
    renderApp('/vendors/AAAAAAA1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Plumbing' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Vendor' })).toHaveAttribute('href', '/vendors/AAAAAAA1/edit');
    expect(screen.getByRole('link', { name: 'office@acme.test' })).toHaveAttribute('href', 'mailto:office@acme.test');
    const table = screen.getByRole('table', { name: 'Vendor documents' });
    const [select, ...columns] = within(table).getAllByRole('columnheader');
    expect(within(select!).getByRole('checkbox', { name: 'Select all on this page' })).toBeInTheDocument();
    expect(columns.map((h) => h.textContent)).toEqual([
      'File Name',
      'Document Type',
      'Uploaded',
      'Expiration',
      'Status',
      'Actions',
    ]);
    expect(within(table).getByText('Certificate of Insurance')).toBeInTheDocument();
    expect(within(table).getByText('General Liability')).toBeInTheDocument();
    expect(within(table).getByText('Mar 31, 2025')).toBeInTheDocument();
    const view = within(table).getByRole('link', { name: 'View' });
    expect(view).toHaveAttribute('href', '/view-document/doc-coi');
    expect(view).toHaveAttribute('target', '_blank');
    expect(within(table).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it("says 'Vendor not found' for an unknown id", async () => {
    signInAs();
    renderApp('/vendors/NOPE0000/documents');
    expect(await screen.findByText('Vendor not found')).toBeInTheDocument();
    expect(screen.getByText("The vendor you're looking for doesn't exist or has been removed.")).toBeInTheDocument();
  });

  it("offers an upload in the 'No documents' state", async () => {
    signInAs();
    db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
    renderApp('/vendors/AAAAAAA1');
    expect(await screen.findByText('No documents')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Upload Document' })).toHaveLength(2);
  });

  it('deletes a document after confirmation', async () => {
    seed();
    const { user } = renderApp('/vendors/AAAAAAA1');
    const table = await screen.findByRole('table', { name: 'Vendor documents' });
    await user.click(within(table).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(dialog).toHaveTextContent(
      'This action cannot be undone. This will permanently delete the document and remove it from our servers.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Document deleted');
    expect(await screen.findByText('No documents')).toBeInTheDocument();
  });

  it("downloads with the bearer token and the server's file name", async () => {
    seed();
    let auth: string | null = null;
    server.use(
      http.get('/api/documents/{id}/download', ({ request }) => {
        auth = request.headers.get('Authorization');
        return new HttpResponse('PDF', {
          headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="gl-certificate.pdf"' },
        });
      }),
    );
    const createObjectURL = vi.fn(() => 'blob:mock');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = renderApp('/vendors/AAAAAAA1');
    const table = await screen.findByRole('table', { name: 'Vendor documents' });
    await user.click(within(table).getByRole('button', { name: 'Download' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Download started');
    expect(auth).toMatch(/^Bearer /);
    expect(click).toHaveBeenCalledTimes(1);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('gl-certificate.pdf');
  });

  it("reports a failed download as 'Download failed'", async () => {
    seed();
    server.use(
      http.get('/api/documents/{id}/download', () =>
        HttpResponse.json({ error: 'not_found', message: 'Document not found.' }, { status: 404 }),
      ),
    );
    const { user } = renderApp('/vendors/AAAAAAA1');
    const table = await screen.findByRole('table', { name: 'Vendor documents' });
    await user.click(within(table).getByRole('button', { name: 'Download' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Download failed');
    expect(status).toHaveTextContent('Document not found.');
    await waitFor(() => expect(screen.getByRole('status')).toBeInTheDocument());
  });

  it('lists the earlier version of a renewed document as history', async () => {
    seed();
    db.documents[0] = { ...db.documents[0]!, id: 'doc-coi-2', fileName: 'gl-2026.pdf', version: 2, status: 'current' };
    db.history = [
      buildDocument({
        id: 'doc-coi-1',
        vendorId: 'AAAAAAA1',
        fileName: 'gl-2025.pdf',
        documentType: 'coi',
        coiType: 'general_liability',
        expirationDate: '2025-03-31',
        version: 1,
      }),
    ];
    renderApp('/vendors/AAAAAAA1');
    const table = await screen.findByRole('table', { name: 'Vendor documents' });
    expect(within(table).getByText('Version 2')).toBeInTheDocument();
    const history = await screen.findByRole('list', { name: 'Version history' });
    expect(within(history).getByText('gl-2025.pdf')).toBeInTheDocument();
    expect(within(history).getByText('Version 1')).toBeInTheDocument();
    expect(history).toHaveTextContent('Expires Mar 31, 2025 · Replaced by version 2');
    expect(within(history).getByRole('link', { name: 'View version 1' })).toHaveAttribute('href', '/view-document/doc-coi-1');
  });

  it('shows no history section when nothing was renewed', async () => {
    seed();
    renderApp('/vendors/AAAAAAA1');
    await screen.findByRole('table', { name: 'Vendor documents' });
    expect(screen.queryByText('Version History')).not.toBeInTheDocument();
  });
});
