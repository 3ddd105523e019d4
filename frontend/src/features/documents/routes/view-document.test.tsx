import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildDocument } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

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

describe('view document: certificate coverage', () => {
  function seedCoi(role: 'member' | 'viewer' = 'member') {
    signInAs({ orgRole: role });
    db.documents = [
      buildDocument({
        id: 'doc-coi',
        vendorId: 'AAAAAAA1',
        vendor: 'Granite Builders LLC',
        fileName: 'coi.pdf',
        documentType: 'coi',
        coiType: 'general_liability',
      }),
    ];
  }

  async function panel() {
    const heading = await screen.findByRole('heading', { level: 2, name: 'Certificate coverage' });
    return within(heading.closest('section') as HTMLElement);
  }

  it('shows the coverage form beside a COI and saves what is typed, then what the server stored', async () => {
    seedCoi();
    const { user } = renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(coverage.getByTestId('coverage-source')).toHaveTextContent('Nothing saved yet');
    expect(coverage.getByRole('textbox', { name: 'Insured' })).toHaveValue('Granite Builders LLC');
    // The page has no dialog to leave: no Cancel.
    expect(coverage.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    await user.click(coverage.getByRole('button', { name: /Add a line/ }));
    await user.click(await screen.findByRole('option', { name: 'General liability' }));
    await user.click(coverage.getByRole('button', { name: 'Add line' }));
    const line = within(coverage.getByRole('group', { name: 'General liability' }));
    await user.type(line.getByRole('textbox', { name: 'Insurer' }), 'Hartford');
    await user.type(line.getByLabelText('Expiration date'), '2027-01-01');
    const each = line.getByRole('textbox', { name: 'Each occurrence' });
    await user.type(each, '500K');
    await user.click(coverage.getByRole('button', { name: 'Save coverage' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Coverage saved');
    expect(status).toHaveTextContent('The coverage of coi.pdf is saved.');
    expect(db.documents[0]!.coverage).toMatchObject({
      insured: 'Granite Builders LLC',
      source: 'manual',
      lines: [
        { line: 'general_liability', insurer: 'Hartford', expirationDate: '2027-01-01', limits: { eachOccurrence: 500_000 } },
      ],
    });
    // The form stays, showing the amounts as stored; the panel says who entered them.
    await waitFor(() => expect(each).toHaveValue('$500,000'));
    expect(await coverage.findByText('Saved. Source: Entered by hand')).toBeInTheDocument();
  });

  it('opens with the saved coverage and names its source', async () => {
    seedCoi();
    db.documents[0]!.coverage = {
      insured: 'Granite Builders LLC',
      producer: 'Acme Agency',
      certificateHolder: null,
      source: 'extracted',
      lines: [
        { line: 'automobile', limits: { combinedSingleLimit: 1_000_000 }, additionalInsured: true, waiverOfSubrogation: false },
      ],
    };
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(coverage.getByTestId('coverage-source')).toHaveTextContent(
      'Saved. Source: Read from the certificate automatically, not yet checked',
    );
    expect(coverage.getByRole('textbox', { name: 'Producer' })).toHaveValue('Acme Agency');
    const auto = within(coverage.getByRole('group', { name: 'Automobile liability' }));
    expect(auto.getByRole('textbox', { name: 'Combined single limit' })).toHaveValue('$1,000,000');
    expect(auto.getByRole('checkbox', { name: 'Additional insured' })).toBeChecked();
  });

  it('leaves a viewer the saved coverage to read, with nothing to change or save', async () => {
    seedCoi('viewer');
    db.documents[0]!.coverage = {
      insured: 'Granite Builders LLC',
      producer: null,
      certificateHolder: null,
      source: 'manual',
      lines: [
        { line: 'automobile', limits: { combinedSingleLimit: 1_000_000 }, additionalInsured: false, waiverOfSubrogation: false },
      ],
    };
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(coverage.getByText(/Viewers can look but not change anything/)).toBeInTheDocument();
    expect(coverage.getByRole('textbox', { name: 'Insured' })).toBeDisabled();
    expect(coverage.getByRole('textbox', { name: 'Combined single limit' })).toHaveValue('$1,000,000');
    expect(coverage.getByRole('textbox', { name: 'Combined single limit' })).toBeDisabled();
    expect(coverage.getByRole('checkbox', { name: 'Additional insured' })).toBeDisabled();
    expect(coverage.queryByRole('button', { name: 'Save coverage' })).not.toBeInTheDocument();
    expect(coverage.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(coverage.queryByRole('button', { name: /Add a line/ })).not.toBeInTheDocument();
  });

  it('tells a viewer when nothing is saved, without an empty form', async () => {
    seedCoi('viewer');
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(coverage.getByTestId('coverage-source')).toHaveTextContent('Nothing saved yet');
    expect(coverage.queryByRole('form', { name: 'Certificate coverage' })).not.toBeInTheDocument();
  });

  it('is not shown for a document that is not a certificate of insurance', async () => {
    signInAs({ orgRole: 'member' });
    db.documents = [buildDocument({ id: 'doc-w9', fileName: 'w9.pdf', documentType: 'w9' })];
    renderApp('/view-document/doc-w9');
    expect(await screen.findByRole('heading', { level: 1, name: 'w9.pdf' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Certificate coverage' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Certificate coverage' })).not.toBeInTheDocument();
  });
});
