import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeXhr, type FakeXhr } from '@/testing/fake-xhr';
import { db } from '@/testing/mocks/db';
import { buildVendor, slots } from '@/testing/mocks/fixtures';
import { PORTAL_CLIENT_NAME, portalErrors } from '@/testing/mocks/handlers/portal';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { portalNotes } from '../api/upload-portal-document';
import { todayIso, validatePortalUpload } from '../lib/portal-upload-rules';

const GL = 'Certificate of Insurance (General Liability)';
const pdf = (name = 'doc.pdf') => new File(['%PDF-1.4\n%%EOF'], name, { type: 'application/pdf' });

function addVendor() {
  db.vendors = [
    buildVendor({
      id: 'KEY12345',
      name: 'Bright Electric',
      requiredDocuments: ['w9', 'coi_general_liability'],
      slots: slots(),
    }),
  ];
}

describe('corrections on the portal', () => {
  it("lists the certificate's gaps that count, and none when there are none", async () => {
    addVendor();
    db.vendors[0] = {
      ...db.vendors[0],
      meetsRequirements: false,
      gaps: [
        { line: 'automobile', kind: 'missing_line', message: 'No automobile liability on file.' },
        {
          line: 'umbrella',
          kind: 'missing_line',
          message: 'No umbrella liability on file.',
          waived: { id: 'w1', reason: 'Not needed', until: '2099-01-01', by: 'Olive Owner' },
        },
      ],
    };
    await verify();
    const panel = await screen.findByTestId('portal-corrections');
    expect(within(panel).getByRole('heading', { name: 'Corrections requested' })).toBeInTheDocument();
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['No automobile liability on file.']);
  });

  it('shows no corrections panel to a vendor without gaps', async () => {
    addVendor();
    await verify();
    await screen.findByTestId('portal-vendor-name');
    expect(screen.queryByTestId('portal-corrections')).not.toBeInTheDocument();
  });
});

async function openPortal() {
  const app = renderApp('/vendor-upload');
  const keyInput = await screen.findByLabelText('Company Key');
  return { ...app, keyInput };
}

async function verify(key = 'KEY12345') {
  const app = await openPortal();
  await app.user.type(app.keyInput, key);
  await app.user.click(screen.getByRole('button', { name: 'Verify Company Key' }));
  return app;
}

function sentFields(request: FakeXhr) {
  return Object.fromEntries([...request.body!.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${v.name}`]));
}

describe('vendor upload portal: step one', () => {
  it('needs a company key before it asks the server', async () => {
    let asked = false;
    server.use(
      http.get('/api/validate-company-key', () => {
        asked = true;
        return HttpResponse.json({ error: 'company_key_required', message: 'Company key is required' }, { status: 400 });
      }),
    );
    const { user } = await openPortal();
    await user.click(screen.getByRole('button', { name: 'Verify Company Key' }));
    expect(screen.getByText('Company key is required')).toBeInTheDocument();
    expect(asked).toBe(false);
  });

  it("shows 'Invalid Company Key' with the server's message for a wrong key", async () => {
    addVendor();
    await verify('WRONGKEY');
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Invalid Company Key');
    expect(toast).toHaveTextContent('No vendor was found for this company key. Check the key and try again.');
    expect(screen.getByLabelText('Company Key')).toBeInTheDocument();
  });

  it("falls back to 'Unable to verify company with this key.' when the server gives no message", async () => {
    // Outside the document (an envelope has a message): the screen falls back to its own.
    server.use(http.untyped.get('*/api/validate-company-key', () => HttpResponse.json({ valid: false }, { status: 404 })));
    await verify('NOPE1234');
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Invalid Company Key');
    expect(toast).toHaveTextContent('Unable to verify company with this key.');
  });

  it("shows 'Validation Error' when the server cannot be reached", async () => {
    server.use(http.get('/api/validate-company-key', () => HttpResponse.error()));
    await verify();
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Validation Error');
    expect(toast).toHaveTextContent('Unable to connect to the validation service. Please try again later.');
  });

  it('keeps the button off after a 429 instead of calling the key invalid', async () => {
    server.use(http.get('/api/validate-company-key', portalErrors.rateLimited));
    await verify();
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Validation Error');
    expect(toast).toHaveTextContent('Too many attempts. Please wait a moment and try again.');
    expect(screen.getByRole('button', { name: 'Verify Company Key' })).toBeDisabled();
  });

  it('shows a spinner while the key is checked', async () => {
    addVendor();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/validate-company-key', async () => {
        await gate;
        return HttpResponse.json(
          { error: 'company_key_not_found', message: 'No vendor was found for this company key.' },
          { status: 404 },
        );
      }),
    );
    await verify();
    expect(await screen.findByRole('progressbar', { name: 'Verifying company key' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Verifying/ })).toBeDisabled();
    release();
    await screen.findByRole('status');
  });
});

describe('vendor upload portal: step two', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the vendor, the client and an accordion of the requested types', async () => {
    addVendor();
    await verify();
    expect(await screen.findByTestId('portal-vendor-name')).toHaveTextContent('Bright Electric');
    expect(screen.getByTestId('portal-client-name')).toHaveTextContent(PORTAL_CLIENT_NAME);
    const w9 = screen.getByRole('button', { name: /W-9 Form/ });
    const gl = screen.getByRole('button', { name: new RegExp(GL.replace(/[()]/g, '\\$&')) });
    expect(w9).toHaveAttribute('aria-expanded', 'true');
    expect(gl).toHaveAttribute('aria-expanded', 'false');
    const form = screen.getByRole('form', { name: 'Upload W-9 Form' });
    const file = within(form).getByLabelText('Document File');
    expect(file).toHaveAttribute('accept', '.pdf,.doc,.docx,.jpg,.jpeg,.png,.heic,.heif,.tif,.tiff,.webp');
    expect(within(form).getByLabelText('Expiration Date')).toHaveAttribute('min', todayIso());
  });

  it('asks for a file, and for an expiration date on a COI', async () => {
    addVendor();
    const { user } = await verify();
    await user.click(await screen.findByRole('button', { name: /General Liability/ }));
    const form = screen.getByRole('form', { name: `Upload ${GL}` });
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(within(form).getByText('Please select a document file')).toBeInTheDocument();
    expect(within(form).getByText(`Expiration date is required for ${GL}`)).toBeInTheDocument();
  });

  it('uploads a COI with progress, marks it Uploaded and sends type, insurance type, key, notes, date and file', async () => {
    addVendor();
    const xhr = installFakeXhr(() => ({
      status: 201,
      body: { companyName: 'Bright Electric', document: { id: 'd1', fileName: 'gl.pdf', documentType: 'coi' } },
    }));
    const { user } = await verify();
    await user.click(await screen.findByRole('button', { name: /General Liability/ }));
    const form = screen.getByRole('form', { name: `Upload ${GL}` });
    await user.upload(within(form).getByLabelText('Document File'), pdf('gl.pdf'));
    await user.type(within(form).getByLabelText('Expiration Date*'), '2099-05-01');
    await user.type(within(form).getByLabelText('Notes'), 'renewed');
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    await waitFor(() =>
      expect(within(form).getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '50'),
    );
    await waitFor(() => expect(screen.getByRole('button', { name: /General Liability/ })).toHaveTextContent('Uploaded'));
    expect(screen.getByText('1 of 2 uploaded')).toBeInTheDocument();
    const request = xhr.requests[0]!;
    expect([request.method, new URL(request.url).pathname]).toEqual(['POST', '/api/vendor-upload-document']);
    expect(request.headers.Authorization).toBeUndefined();
    expect(sentFields(request)).toEqual({
      documentType: 'coi',
      coiType: 'general_liability',
      companyKey: 'KEY12345',
      notes: 'COI Type: general_liability - renewed',
      expirationDate: '2099-05-01',
      file: 'file:gl.pdf',
    });
  });

  it("shows 'Upload Failed' with the server's message, or 'Failed to upload {label}'", async () => {
    addVendor();
    let reply: Parameters<typeof installFakeXhr>[0] = () => ({
      status: 415,
      body: { error: 'unsupported_file_type', message: 'Only PDF, DOC, DOCX, PNG and JPEG files are accepted.' },
    });
    installFakeXhr((x) => reply!(x));
    const { user } = await verify();
    const form = await screen.findByRole('form', { name: 'Upload W-9 Form' });
    await user.upload(within(form).getByLabelText('Document File'), pdf('w9.pdf'));
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    let toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Upload Failed');
    expect(toast).toHaveTextContent('Only PDF, DOC, DOCX, PNG and JPEG files are accepted.');

    reply = () => ({ status: 500, body: 'oops' });
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Failed to upload W-9 Form'));

    reply = () => ({ status: 0, body: null, networkError: true });
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('An unexpected error occurred while uploading W-9 Form'),
    );
    toast = screen.getByRole('status');
    expect(toast).toHaveTextContent('Upload Failed');
    expect(screen.getByRole('button', { name: /W-9 Form/ })).not.toHaveTextContent('Uploaded');
  });

  it('opens the completion dialog when every type counts as uploaded; Done reloads the page', async () => {
    db.vendors = [
      buildVendor({
        id: 'KEY12345',
        name: 'Bright Electric',
        requiredDocuments: ['w9', 'coi_general_liability'],
        slots: slots({ coi_general_liability: 'expiring_soon' }),
      }),
    ];
    installFakeXhr(() => ({ status: 201, body: { companyName: 'Bright Electric', document: { id: 'd2', fileName: 'w9.pdf' } } }));
    const { user } = await verify();
    expect(await screen.findByRole('button', { name: /General Liability/ })).toHaveTextContent('Uploaded');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Upload W-9 Form' });
    await user.upload(within(form).getByLabelText('Document File'), pdf('w9.pdf'));
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    const dialog = await screen.findByRole('dialog', { name: 'All documents uploaded' });
    expect(dialog).toHaveTextContent(`Every document ${PORTAL_CLIENT_NAME} asked for is now on file.`);

    const original = window.location;
    const reload = vi.fn();
    Object.defineProperty(window, 'location', { configurable: true, value: { ...original, origin: original.origin, reload } });
    try {
      await user.click(within(dialog).getByRole('button', { name: 'Done' }));
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: original });
    }
  });
});

describe('vendor portal rules', () => {
  const coi = { documentType: 'coi' as const, label: GL };
  const w9 = { documentType: 'w9' as const, label: 'W-9 Form' };

  it('validates file, COI date and past dates', () => {
    expect(validatePortalUpload(w9, null, '', '2025-06-01')).toEqual({ file: 'Please select a document file' });
    expect(validatePortalUpload(coi, pdf(), '', '2025-06-01')).toEqual({
      expirationDate: `Expiration date is required for ${GL}`,
    });
    expect(validatePortalUpload(coi, pdf(), '2025-05-31', '2025-06-01').expirationDate).toBe(
      'The expiration date cannot be in the past.',
    );
    expect(validatePortalUpload(w9, new File(['x'], 'a.exe'), '', '2025-06-01').file).toBe(
      'Accepted formats: PDF, DOC, DOCX, JPG, JPEG, PNG, HEIC, TIFF, WebP',
    );
    expect(validatePortalUpload(w9, pdf('IMG_0001.HEIC'), '', '2025-06-01')).toEqual({});
    expect(validatePortalUpload(coi, pdf('x.JPEG'), '2025-06-01', '2025-06-01')).toEqual({});
  });

  it("writes a COI's notes as 'COI Type: {type}', plus ' - {notes}' when there are notes", () => {
    expect(portalNotes('automobile', '')).toBe('COI Type: automobile');
    expect(portalNotes('automobile', ' fleet ')).toBe('COI Type: automobile - fleet');
    expect(portalNotes(null, 'hello')).toBe('hello');
  });
});
