import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildDocument, buildVendor } from '@/testing/mocks/fixtures';
import { PLAN_REQUIRED_MESSAGE } from '@/testing/mocks/handlers/bulk';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

const professional = () => {
  db.plan = { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null };
};

/** Seven documents, file-1.pdf the newest: a page of five and two more. */
function seed(count = 7) {
  signInAs();
  db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
  db.documents = Array.from({ length: count }, (_, i) =>
    buildDocument({
      id: `doc-${i + 1}`,
      vendorId: 'AAAAAAA1',
      vendor: 'Acme Plumbing',
      fileName: `file-${i + 1}.pdf`,
      uploadedAt: new Date(Date.UTC(2025, 2, 20 - i)).toISOString(),
    }),
  );
}

const box = (fileName: string) => screen.getByRole('checkbox', { name: `Select ${fileName} (Acme Plumbing)` });

const bar = () => screen.getByRole('region', { name: 'Bulk actions' });

async function openDocuments() {
  const app = renderApp('/documents');
  await screen.findByRole('table', { name: 'Documents' });
  return app;
}

function stubDownload() {
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:mock'), revokeObjectURL: vi.fn() });
  return vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
}

describe('documents: selection', () => {
  afterEach(() => vi.restoreAllMocks());

  it('selects rows one by one and shows the action bar with the count and Clear', async () => {
    seed();
    const { user } = await openDocuments();
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
    await user.click(box('file-1.pdf'));
    await user.click(box('file-2.pdf'));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(bar).toHaveTextContent('2 selected');
    expect(within(bar).getByRole('button', { name: 'Download ZIP' })).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all on this page' })).toHaveProperty('indeterminate', true);
    await user.click(within(bar).getByRole('button', { name: 'Clear' }));
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
    expect(box('file-1.pdf')).not.toBeChecked();
  });

  it('selects the page from the header, then every matching row with "Select all N matching"', async () => {
    seed();
    const { user } = await openDocuments();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(bar).toHaveTextContent('5 selected');
    expect(screen.getByText('All 5 on this page are selected.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Select all 7 matching' }));
    expect(await screen.findByText('All 7 matching are selected.')).toBeInTheDocument();
    expect(bar).toHaveTextContent('7 selected');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(box('file-6.pdf')).toBeChecked());
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
  });

  it('selects only what the filter shows', async () => {
    seed();
    db.documents[0] = { ...db.documents[0]!, documentType: 'coi', coiType: 'general_liability', fileName: 'gl.pdf' };
    const { user } = await openDocuments();
    await user.type(screen.getByPlaceholderText('Search by document type...'), 'coi');
    expect(await screen.findByText('Showing 1 to 1 of 1 entries')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    expect(screen.getByRole('region', { name: 'Bulk actions' })).toHaveTextContent('1 selected');
    expect(screen.queryByRole('button', { name: /Select all \d+ matching/ })).not.toBeInTheDocument();
  });
});

describe('documents: bulk actions', () => {
  afterEach(() => vi.restoreAllMocks());

  it('downloads one ZIP of the selected ids, with a spinner while it runs', async () => {
    seed();
    professional();
    let sent: unknown = null;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('/api/documents/archive', async ({ request }) => {
        sent = await request.json();
        await gate;
        return new HttpResponse('PK', {
          headers: {
            'Content-Type': 'application/zip',
            'Content-Disposition': 'attachment; filename="documents-2025-03-01.zip"',
          },
        });
      }),
    );
    const click = stubDownload();
    const { user } = await openDocuments();
    await user.click(box('file-2.pdf'));
    await user.click(box('file-4.pdf'));
    await user.click(within(bar()).getByRole('button', { name: 'Download ZIP' }));
    expect(await screen.findByTestId('zip-spinner')).toBeInTheDocument();
    expect(within(bar()).getByRole('button', { name: 'Download ZIP' })).toBeDisabled();
    release();
    expect(await screen.findByRole('status')).toHaveTextContent('Download started');
    expect(sent).toEqual({ ids: ['doc-2', 'doc-4'] });
    expect(click).toHaveBeenCalledTimes(1);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('documents-2025-03-01.zip');
    expect(screen.queryByTestId('zip-spinner')).not.toBeInTheDocument();
  });

  it('shows a Free organization the controls, and the upgrade prompt instead of acting', async () => {
    seed();
    let called = false;
    server.use(
      http.post('/api/documents/archive', () => {
        called = true;
        return new HttpResponse('PK');
      }),
    );
    const { user } = await openDocuments();
    await user.click(box('file-1.pdf'));
    await user.click(within(bar()).getByRole('button', { name: 'Download ZIP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Professional' });
    expect(dialog).toHaveTextContent('Bulk document operations are part of the Professional plan.');
    expect(within(dialog).getByRole('button', { name: 'Upgrade Now' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('dialog', { name: 'Upgrade to Professional' })).toBeInTheDocument();
    expect(called).toBe(false);
    expect(db.documents).toHaveLength(7);
  });

  it("shows the server's 402 plan_required sentence with Upgrade Now", async () => {
    seed();
    // The page still thinks the plan is Professional; the server knows better.
    professional();
    server.use(
      http.post('/api/documents/archive', () =>
        HttpResponse.json({ error: 'plan_required', message: PLAN_REQUIRED_MESSAGE }, { status: 402 }),
      ),
    );
    const { user } = await openDocuments();
    await user.click(box('file-1.pdf'));
    await user.click(within(bar()).getByRole('button', { name: 'Download ZIP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Professional' });
    expect(dialog).toHaveTextContent(PLAN_REQUIRED_MESSAGE);
    expect(within(dialog).getByRole('button', { name: 'Upgrade Now' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('asks once ("Delete N documents?"), deletes them all and refreshes the list', async () => {
    seed();
    professional();
    const { user } = await openDocuments();
    await user.click(box('file-1.pdf'));
    await user.click(box('file-3.pdf'));
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 documents?' });
    expect(dialog).toHaveTextContent('This action cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('2 documents deleted');
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: /Select file-1\.pdf/ })).not.toBeInTheDocument());
    expect(db.documents.map((d) => d.id)).toEqual(['doc-2', 'doc-4', 'doc-5', 'doc-6', 'doc-7']);
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
  });

  it('cancelling the confirmation deletes nothing', async () => {
    seed();
    professional();
    const { user } = await openDocuments();
    await user.click(box('file-1.pdf'));
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 1 document?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(db.documents).toHaveLength(7);
    expect(screen.getByRole('region', { name: 'Bulk actions' })).toHaveTextContent('1 selected');
  });

  it('a 404 (one of them is gone) says nothing was changed and refreshes the list', async () => {
    seed();
    professional();
    const { user } = await openDocuments();
    await user.click(box('file-1.pdf'));
    await user.click(box('file-2.pdf'));
    // Someone else deleted one meanwhile.
    db.documents = db.documents.filter((d) => d.id !== 'doc-2');
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Delete failed');
    expect(status).toHaveTextContent('One or more of them were not found. Nothing was changed.');
    expect(db.documents).toHaveLength(6);
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: /Select file-2\.pdf/ })).not.toBeInTheDocument());
    expect(screen.getByRole('region', { name: 'Bulk actions' })).toHaveTextContent('1 selected');
  });

  it('exports the documents as CSV', async () => {
    seed(1);
    const click = stubDownload();
    const { user } = await openDocuments();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Download started');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(/^documents-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  it('exports the documents as an Excel workbook', async () => {
    seed(1);
    const click = stubDownload();
    const asked: URL[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.url.includes('/api/documents/export')) asked.push(new URL(request.url));
    });
    const { user } = await openDocuments();
    await user.click(screen.getByRole('button', { name: 'Export Excel' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Download started');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(/^documents-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(asked.map((url) => url.search)).toEqual(['?format=xlsx']);
  });
});
