import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildDocument } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor } from '@/testing/test-utils';

describe('view document', () => {
  it("shows a PDF from a signed link that ends with the file's name, not from a blob", async () => {
    signInAs();
    db.documents = [buildDocument({ id: 'doc-coi', fileName: 'Zoë COI 2026.pdf', contentType: 'application/pdf' })];
    renderApp('/view-document/doc-coi');
    const frame = await waitFor(() => {
      const found = screen.getAllByTitle('Zoë COI 2026.pdf').find((el) => el.tagName === 'IFRAME');
      expect(found).toBeDefined();
      return found!;
    });
    const src = frame.getAttribute('src') ?? '';
    expect(src).toMatch(/^\/api\/documents\/doc-coi\/file\/\d+\/[0-9a-f]+\/Zo%C3%AB%20COI%202026\.pdf$/);
    expect(src).not.toMatch(/^blob:/);
  });

  it('says so when the link cannot be had', async () => {
    signInAs();
    db.documents = [buildDocument({ id: 'doc-w9', fileName: 'w9.pdf' })];
    server.use(
      http.get('/api/documents/{id}/view-link', () =>
        HttpResponse.json({ error: 'server_error', message: 'Something went wrong.' }, { status: 500 }),
      ),
    );
    renderApp('/view-document/doc-w9');
    expect(await screen.findByText('The document could not be shown')).toBeInTheDocument();
  });

  it('offers a download for a picture the browser cannot show', async () => {
    // jsdom has no object URLs (this file runs in a jsdom of its own).
    Object.assign(URL, { createObjectURL: () => 'blob:heic', revokeObjectURL: () => {} });
    signInAs();
    db.documents = [buildDocument({ id: 'doc-heic', fileName: 'IMG_0001.HEIC', contentType: 'image/heic' })];
    server.use(
      http.get(
        '/api/documents/{id}/view',
        // The document states bytes as a string; a Blob is bytes too.
        ({ response }) =>
          response.untyped(new HttpResponse(new Blob(['....ftypheic']), { headers: { 'Content-Type': 'image/heic' } })),
      ),
    );
    renderApp('/view-document/doc-heic');
    expect(await screen.findByRole('heading', { level: 2, name: 'Preview not available' })).toBeInTheDocument();
  });
});
