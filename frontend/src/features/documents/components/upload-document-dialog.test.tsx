import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeXhr } from '@/testing/fake-xhr';
import { db } from '@/testing/mocks/db';
import { buildVendor } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';
import { validateUpload } from './upload-document-dialog';

async function openDialog() {
  signInAs();
  db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
  const app = renderApp('/vendors/AAAAAAA1');
  await screen.findByText('No documents');
  await app.user.click(screen.getAllByRole('button', { name: 'Upload Document' })[0]!);
  const dialog = await screen.findByRole('dialog', { name: 'Upload Document' });
  return { ...app, dialog };
}

async function choose(user: Awaited<ReturnType<typeof openDialog>>['user'], label: RegExp, option: string) {
  await user.click(screen.getByRole('button', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Upload Document dialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('validates file, document type and COI insurance type', async () => {
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(within(dialog).getByText('Please select a file to upload')).toBeInTheDocument();
    expect(within(dialog).getByText('Please select a document type')).toBeInTheDocument();
    await choose(user, /Document Type/, 'Certificate of Insurance');
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(within(dialog).getByText('Please select an insurance type for the COI')).toBeInTheDocument();
  });

  it('rejects other formats and files over 10MB', () => {
    const big = new File(['x'], 'big.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    expect(validateUpload(big, 'w9', '').file).toBe('The file is larger than 10MB');
    expect(validateUpload(new File(['x'], 'run.exe'), 'w9', '').file).toBe(
      'Accepted formats: PDF, DOC, DOCX, PNG, JPG, JPEG, HEIC, TIFF, WebP',
    );
    expect(validateUpload(new File(['x'], 'ok.PDF'), 'w9', '')).toEqual({});
    for (const name of ['IMG_0001.HEIC', 'photo.heif', 'scan.tif', 'scan.TIFF', 'photo.webp'])
      expect(validateUpload(new File(['x'], name), 'w9', '')).toEqual({});
  });

  it('uploads a COI with its insurance type, date and notes', async () => {
    const xhr = installFakeXhr(() => ({ status: 201, body: { id: 'doc-new', fileName: 'coi.pdf' } }));
    const { user, dialog } = await openDialog();
    await choose(user, /Document Type/, 'Certificate of Insurance');
    await choose(user, /Insurance Type/, 'Workers Compensation');
    await user.type(within(dialog).getByLabelText('Expiration Date'), '2026-05-01');
    await user.type(within(dialog).getByLabelText('Notes'), 'renewed early');
    await user.upload(within(dialog).getByLabelText('File'), new File(['%PDF-1.4'], 'coi.pdf', { type: 'application/pdf' }));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '50'),
    );
    expect(await screen.findByRole('status')).toHaveTextContent('Document uploaded');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const request = xhr.requests[0]!;
    expect([request.method, new URL(request.url).pathname]).toEqual(['POST', '/api/vendors/AAAAAAA1/documents']);
    expect(request.headers.Authorization).toMatch(/^Bearer /);
    const sent = Object.fromEntries(
      [...request.body!.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${v.name}`]),
    );
    expect(sent).toEqual({
      documentType: 'coi',
      coiType: 'workers_comp',
      expirationDate: '2026-05-01',
      notes: 'renewed early',
      file: 'file:coi.pdf',
    });
  });

  it("shows 'Upload failed' with the server's message", async () => {
    installFakeXhr(() => ({
      status: 415,
      body: { error: 'unsupported_file_type', message: 'Only PDF, DOC, DOCX, PNG and JPEG files are accepted.' },
    }));
    const { user, dialog } = await openDialog();
    await choose(user, /Document Type/, 'W9 Form');
    await user.upload(within(dialog).getByLabelText('File'), new File(['x'], 'w9.pdf', { type: 'application/pdf' }));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only PDF, DOC, DOCX, PNG and JPEG files are accepted.');
    expect(screen.getByRole('status', { hidden: true })).toHaveTextContent('Upload failed');
  });
});
