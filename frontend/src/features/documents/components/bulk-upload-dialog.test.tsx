import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeXhr, type FakeXhr } from '@/testing/fake-xhr';
import { db } from '@/testing/mocks/db';
import { buildVendor } from '@/testing/mocks/fixtures';
import { fireEvent, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

const pdf = (name: string) => new File(['%PDF-1.4'], name, { type: 'application/pdf' });

function fileOf(xhr: FakeXhr): string {
  const file = xhr.body?.get('file');
  return file instanceof File ? file.name : '';
}

async function openBulkUpload() {
  signInAs();
  db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
  const app = renderApp('/vendors/AAAAAAA1');
  await app.user.click(await screen.findByRole('button', { name: 'Bulk Upload' }));
  const dialog = await screen.findByRole('dialog', { name: 'Bulk Upload' });
  return { ...app, dialog };
}

async function choose(user: Awaited<ReturnType<typeof openBulkUpload>>['user'], row: HTMLElement, label: RegExp, option: string) {
  await user.click(within(row).getByRole('button', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Bulk Upload', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uploads each file on its own: one refused, the others uploaded, each with its own message', async () => {
    const xhr = installFakeXhr((request) =>
      fileOf(request) === 'photo.pdf'
        ? {
            status: 415,
            body: { error: 'unsupported_file_type', message: 'Only PDF, DOC, DOCX, PNG and JPEG files are accepted.' },
          }
        : { status: 201, body: { id: `doc-${fileOf(request)}` } },
    );
    const { user, dialog } = await openBulkUpload();
    await user.upload(within(dialog).getByLabelText('Files'), [pdf('w9.pdf'), pdf('gl.pdf'), pdf('photo.pdf')]);
    const list = within(dialog).getByRole('list', { name: 'Files to upload' });
    const row = (name: string) => within(list).getByRole('listitem', { name });

    await choose(user, row('w9.pdf'), /Document Type/, 'W9 Form');
    await choose(user, row('gl.pdf'), /Document Type/, 'Certificate of Insurance');
    await choose(user, row('gl.pdf'), /Insurance Type/, 'General Liability');
    await user.type(within(row('gl.pdf')).getByLabelText('Expiration Date'), '2026-05-01');
    await choose(user, row('photo.pdf'), /Document Type/, 'Other');
    expect(within(row('w9.pdf')).queryByRole('button', { name: /Insurance Type/ })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Upload 3 files' }));
    // The dialog stays open (it is modal): the toast behind it is outside the accessibility tree meanwhile.
    const status = await screen.findByRole('status', { hidden: true });
    expect(status).toHaveTextContent('2 documents uploaded');
    expect(status).toHaveTextContent('1 could not be uploaded');
    expect(within(row('w9.pdf')).getByText('Document uploaded')).toBeInTheDocument();
    expect(within(row('gl.pdf')).getByText('Document uploaded')).toBeInTheDocument();
    expect(within(row('gl.pdf')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(
      within(row('photo.pdf')).getByText('Upload failed: Only PDF, DOC, DOCX, PNG and JPEG files are accepted.'),
    ).toBeInTheDocument();

    expect(xhr.requests).toHaveLength(3);
    const sent = Object.fromEntries(
      xhr.requests.map((r) => [
        fileOf(r),
        Object.fromEntries([...r.body!.entries()].filter(([k]) => k !== 'file').map(([k, v]) => [k, String(v)])),
      ]),
    );
    expect(sent).toEqual({
      'w9.pdf': { documentType: 'w9' },
      'gl.pdf': { documentType: 'coi', coiType: 'general_liability', expirationDate: '2026-05-01' },
      'photo.pdf': { documentType: 'other' },
    });
    expect(xhr.requests.every((r) => new URL(r.url).pathname === '/api/vendors/AAAAAAA1/documents')).toBe(true);

    // Trying again sends only the file that failed.
    expect(within(dialog).getByRole('button', { name: 'Upload 1 file' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Upload 1 file' }));
    await waitFor(() => expect(xhr.requests).toHaveLength(4));
    expect(fileOf(xhr.requests[3]!)).toBe('photo.pdf');
  });

  it('checks each file before sending: type required, accepted formats', async () => {
    const xhr = installFakeXhr();
    const { user, dialog } = await openBulkUpload();
    const input = within(dialog).getByLabelText('Files');
    fireEvent.change(input, { target: { files: [pdf('a.pdf'), new File(['x'], 'run.exe')] } });
    const list = within(dialog).getByRole('list', { name: 'Files to upload' });
    await user.click(within(dialog).getByRole('button', { name: 'Upload 2 files' }));
    const a = within(list).getByRole('listitem', { name: 'a.pdf' });
    const exe = within(list).getByRole('listitem', { name: 'run.exe' });
    expect(within(a).getByText('Please select a document type')).toBeInTheDocument();
    expect(within(exe).getByText('Accepted formats: PDF, DOC, DOCX, PNG, JPG, JPEG, HEIC, TIFF, WebP')).toBeInTheDocument();
    expect(xhr.requests).toHaveLength(0);
    await user.click(within(exe).getByRole('button', { name: 'Remove run.exe' }));
    expect(within(list).queryByRole('listitem', { name: 'run.exe' })).not.toBeInTheDocument();
  });

  it('takes files dropped on the drop zone and closes once all are uploaded', async () => {
    installFakeXhr(() => ({ status: 201, body: {} }));
    const { user, dialog } = await openBulkUpload();
    fireEvent.drop(within(dialog).getByTestId('bulk-drop-zone'), { dataTransfer: { files: [pdf('one.pdf'), pdf('two.pdf')] } });
    const list = within(dialog).getByRole('list', { name: 'Files to upload' });
    for (const name of ['one.pdf', 'two.pdf']) {
      await choose(user, within(list).getByRole('listitem', { name }), /Document Type/, 'Vendor Agreement');
    }
    await user.click(within(dialog).getByRole('button', { name: 'Upload 2 files' }));
    expect(await screen.findByRole('status')).toHaveTextContent('2 documents uploaded');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
