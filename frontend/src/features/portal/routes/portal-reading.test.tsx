import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeXhr } from '@/testing/fake-xhr';
import { db } from '@/testing/mocks/db';
import { buildVendor, slots } from '@/testing/mocks/fixtures';
import { addPortalReading, buildPortalReading } from '@/testing/mocks/handlers/portal';
import { http } from '@/testing/mocks/http';
import { server } from '@/testing/mocks/server';
import { recordGets, renderApp, screen, waitFor, within } from '@/testing/test-utils';

const GL = 'Certificate of Insurance (General Liability)';
const TOKEN = 'reading-token-1';
const pdf = () => new File(['%PDF-1.4\n%%EOF'], 'gl.pdf', { type: 'application/pdf' });

/** A vendor asked for a general liability certificate only: its upload completes the request. */
function addVendor() {
  db.vendors = [
    buildVendor({ id: 'KEY12345', name: 'Bright Electric', requiredDocuments: ['coi_general_liability'], slots: slots() }),
  ];
}

/** Verifies the key and uploads the COI; the upload answers `readingToken` when one is given. */
async function uploadCoi(readingToken?: string) {
  addVendor();
  installFakeXhr(() => ({
    status: 201,
    body: {
      companyName: 'Bright Electric',
      document: { id: 'd1', fileName: 'gl.pdf', documentType: 'coi', status: 'current' },
      ...(readingToken ? { readingToken } : {}),
    },
  }));
  const app = renderApp('/vendor-upload');
  await app.user.type(await screen.findByLabelText('Company Key'), 'KEY12345');
  await app.user.click(screen.getByRole('button', { name: 'Verify Company Key' }));
  const form = await screen.findByRole('form', { name: `Upload ${GL}` });
  await app.user.upload(within(form).getByLabelText('Document File'), pdf());
  await app.user.type(within(form).getByLabelText('Expiration Date*'), '2099-05-01');
  await app.user.click(within(form).getByRole('button', { name: 'Upload' }));
  return app;
}

const readingSection = () => screen.findByRole('region', { name: 'What we read from your certificate' });

describe('what was read of a portal upload', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('without a reading token the flow is as before: no reading asked for, the completion dialog opens', async () => {
    const gets = recordGets('/api/portal/reading');
    await uploadCoi();
    expect(await screen.findByRole('dialog', { name: 'All documents uploaded' })).toBeInTheDocument();
    expect(screen.queryByText('What we read from your certificate')).not.toBeInTheDocument();
    expect(gets).toEqual([]);
  });

  it('shows a spinner while the certificate is read, asks again every 2 s, then the read facts', async () => {
    addPortalReading(TOKEN, buildPortalReading(), ['queued', 'running']);
    const gets = recordGets('/api/portal/reading');
    await uploadCoi(TOKEN);
    const section = await readingSection();
    expect(within(section).getByRole('progressbar', { name: 'Reading your certificate…' })).toBeInTheDocument();
    expect(section).toHaveTextContent('Reading your certificate…');
    // The completion dialog waits: it would cover what was read.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    const form = await within(section).findByRole('form', { name: 'Correct what we read' }, { timeout: 8000 });
    expect(gets).toEqual([{ token: TOKEN }, { token: TOKEN }, { token: TOKEN }]);
    expect(within(form).getByLabelText('Insured')).toHaveValue('Bright Electric');
    expect(within(form).getByLabelText('Certificate holder')).toHaveValue('Acme Property Group');
    const line = within(form).getByRole('group', { name: 'General liability' });
    expect(within(line).getByLabelText('Policy number')).toHaveValue('GL-1234567');
    expect(within(line).getByLabelText('Effective date')).toHaveValue('2026-01-01');
    expect(within(line).getByLabelText('Expiration date')).toHaveValue('2027-01-01');
    expect(within(line).getByLabelText('Each occurrence')).toHaveValue('$1,000,000');
    expect(within(line).getByLabelText('General aggregate')).toHaveValue('$2,000,000');
    expect(within(line).getByLabelText('Additional insured')).toBeChecked();
    expect(within(line).getByLabelText('Waiver of subrogation')).not.toBeChecked();
    expect(within(form).getByLabelText('Certificate date')).toHaveValue('2026-11-01');
    expect(within(form).getByLabelText('Producer')).toHaveValue('Keystone Insurance Agency');
    expect(within(line).getByLabelText('Insurer')).toHaveValue('Travelers');
    expect(within(line).getByLabelText('NAIC')).toHaveValue('25658');
    // Nothing was left out: no list of it.
    expect(within(section).queryByRole('heading', { name: 'Left out by the reader' })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  }, 15000);

  it("sends the vendor's corrections with what it did not change, thanks, then completes", async () => {
    const entry = addPortalReading(TOKEN);
    const { user } = await uploadCoi(TOKEN);
    const form = await within(await readingSection()).findByRole('form', { name: 'Correct what we read' });
    const policy = within(form).getByLabelText('Policy number');
    await user.clear(policy);
    await user.type(policy, 'GL-7654321');
    const occurrence = within(form).getByLabelText('Each occurrence');
    await user.clear(occurrence);
    await user.type(occurrence, '$2M');
    await user.click(within(form).getByLabelText('Waiver of subrogation'));
    await user.click(within(form).getByRole('button', { name: 'Send corrections' }));

    // The completion dialog that follows hides the rest of the page from the accessibility tree.
    expect(await screen.findByText('Thanks, your corrections were sent')).toBeInTheDocument();
    expect(entry.corrections).toEqual([
      {
        insured: 'Bright Electric',
        producer: 'Keystone Insurance Agency',
        certificateHolder: 'Acme Property Group',
        certificateDate: '2026-11-01',
        lines: [
          {
            line: 'general_liability',
            insurer: 'Travelers',
            naic: '25658',
            policyNumber: 'GL-7654321',
            effectiveDate: '2026-01-01',
            expirationDate: '2027-01-01',
            limits: { eachOccurrence: '$2M', generalAggregate: '$2,000,000' },
            additionalInsured: true,
            waiverOfSubrogation: true,
          },
        ],
      },
    ]);
    expect(screen.queryByRole('form', { name: 'Correct what we read' })).not.toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: 'All documents uploaded' })).toBeInTheDocument();
  });

  it("sends the certificate's date, the producer, an insurer and its NAIC as the vendor corrected them", async () => {
    const entry = addPortalReading(TOKEN);
    const { user } = await uploadCoi(TOKEN);
    const form = await within(await readingSection()).findByRole('form', { name: 'Correct what we read' });
    const date = within(form).getByLabelText('Certificate date');
    await user.clear(date);
    await user.type(date, '2026-11-15');
    const producer = within(form).getByRole('textbox', { name: 'Producer' });
    await user.clear(producer);
    await user.type(producer, 'Summit Brokers');
    const line = within(within(form).getByRole('group', { name: 'General liability' }));
    const insurer = line.getByRole('textbox', { name: 'Insurer' });
    await user.clear(insurer);
    await user.type(insurer, 'Hartford');
    const naic = line.getByRole('textbox', { name: 'NAIC' });
    await user.clear(naic);
    await user.type(naic, '19682');
    await user.click(within(form).getByRole('button', { name: 'Send corrections' }));

    expect(await screen.findByText('Thanks, your corrections were sent')).toBeInTheDocument();
    expect(entry.corrections).toEqual([
      {
        insured: 'Bright Electric',
        producer: 'Summit Brokers',
        certificateHolder: 'Acme Property Group',
        certificateDate: '2026-11-15',
        lines: [
          {
            line: 'general_liability',
            insurer: 'Hartford',
            naic: '19682',
            policyNumber: 'GL-1234567',
            effectiveDate: '2026-01-01',
            expirationDate: '2027-01-01',
            limits: { eachOccurrence: '$1,000,000', generalAggregate: '$2,000,000' },
            additionalInsured: true,
            waiverOfSubrogation: false,
          },
        ],
      },
    ]);
  });

  it('leaves out a line the vendor removed and sends one it added, the focus following each', async () => {
    const reading = buildPortalReading();
    reading.suggestion!.lines.push({
      line: 'automobile',
      insurer: 'Progressive',
      naic: '24260',
      policyNumber: 'AU-555',
      effectiveDate: '2026-01-01',
      expirationDate: '2027-01-01',
      limits: { combinedSingleLimit: 1000000 },
      additionalInsured: false,
      waiverOfSubrogation: false,
    });
    const entry = addPortalReading(TOKEN, reading);
    const { user } = await uploadCoi(TOKEN);
    const form = within(await within(await readingSection()).findByRole('form', { name: 'Correct what we read' }));

    await user.click(form.getByRole('button', { name: 'Remove Automobile liability' }));
    expect(form.queryByRole('group', { name: 'Automobile liability' })).not.toBeInTheDocument();
    // The button pressed is gone: the focus is on the line before it.
    const gl = within(form.getByRole('group', { name: 'General liability' }));
    expect(gl.getByText('General liability', { selector: 'legend' })).toHaveFocus();

    await user.click(form.getByRole('button', { name: /Add a line/ }));
    await user.click(await screen.findByRole('option', { name: 'Umbrella liability' }));
    await user.click(form.getByRole('button', { name: 'Add line' }));
    const umbrella = within(form.getByRole('group', { name: 'Umbrella liability' }));
    expect(umbrella.getByRole('textbox', { name: 'Insurer' })).toHaveFocus();
    for (const name of ['Insurer', 'NAIC', 'Policy number', 'Each occurrence', 'Aggregate']) {
      expect(umbrella.getByRole('textbox', { name })).toHaveValue('');
    }
    expect(umbrella.getByLabelText('Effective date')).toHaveValue('');
    expect(umbrella.getByRole('checkbox', { name: 'Additional insured' })).not.toBeChecked();
    expect(umbrella.getByRole('checkbox', { name: 'Waiver of subrogation' })).not.toBeChecked();
    await user.type(umbrella.getByRole('textbox', { name: 'Insurer' }), 'Chubb');
    await user.type(umbrella.getByRole('textbox', { name: 'Each occurrence' }), '$5M');
    await user.click(form.getByRole('button', { name: 'Send corrections' }));

    expect(await screen.findByText('Thanks, your corrections were sent')).toBeInTheDocument();
    expect(entry.corrections).toHaveLength(1);
    expect(entry.corrections[0]!.lines).toEqual([
      {
        line: 'general_liability',
        insurer: 'Travelers',
        naic: '25658',
        policyNumber: 'GL-1234567',
        effectiveDate: '2026-01-01',
        expirationDate: '2027-01-01',
        limits: { eachOccurrence: '$1,000,000', generalAggregate: '$2,000,000' },
        additionalInsured: true,
        waiverOfSubrogation: false,
      },
      {
        line: 'umbrella',
        insurer: 'Chubb',
        naic: null,
        policyNumber: null,
        effectiveDate: null,
        expirationDate: null,
        limits: { eachOccurrence: '$5M' },
        additionalInsured: false,
        waiverOfSubrogation: false,
      },
    ]);
  });

  it('removes the only line read, puts the focus on "Add a line" and sends no line', async () => {
    const entry = addPortalReading(TOKEN);
    const { user } = await uploadCoi(TOKEN);
    const form = within(await within(await readingSection()).findByRole('form', { name: 'Correct what we read' }));
    await user.click(form.getByRole('button', { name: 'Remove General liability' }));
    expect(form.queryByRole('group', { name: 'General liability' })).not.toBeInTheDocument();
    expect(form.getByText('No lines of insurance were read.')).toBeInTheDocument();
    expect(form.getByRole('button', { name: /Add a line/ })).toHaveFocus();
    await user.click(form.getByRole('button', { name: 'Send corrections' }));
    expect(await screen.findByText('Thanks, your corrections were sent')).toBeInTheDocument();
    expect(entry.corrections).toHaveLength(1);
    expect(entry.corrections[0]!.lines).toEqual([]);
  });

  it('shows what the reader left out above the fields', async () => {
    addPortalReading(
      TOKEN,
      buildPortalReading({
        notes: ['An excess liability line with no policy number', 'A limit named "Stop gap", not one the form has'],
      }),
    );
    await uploadCoi(TOKEN);
    const section = await readingSection();
    const form = await within(section).findByRole('form', { name: 'Correct what we read' });
    const heading = within(form).getByRole('heading', { name: 'Left out by the reader' });
    const list = within(heading.parentElement!).getByRole('list');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['An excess liability line with no policy number', 'A limit named "Stop gap", not one the form has']);
    // Above the fields: read before the first of them.
    expect(heading.compareDocumentPosition(within(form).getByLabelText('Certificate date'))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it("puts a 422's messages on the certificate's date, the producer, an insurer and a NAIC", async () => {
    addPortalReading(TOKEN);
    server.use(
      http.put('/api/portal/reading', () =>
        HttpResponse.json(
          {
            error: 'validation_failed',
            message: 'Some fields need fixing.',
            errors: {
              certificateDate: ['The certificate date cannot be in the future'],
              producer: ['The producer is too long'],
              'lines[0].insurer': ['The insurer is too long'],
              'lines[0].naic': ['A NAIC code is five digits'],
            },
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = await uploadCoi(TOKEN);
    const form = await within(await readingSection()).findByRole('form', { name: 'Correct what we read' });
    await user.click(within(form).getByRole('button', { name: 'Send corrections' }));

    const date = within(form).getByLabelText('Certificate date');
    await waitFor(() => expect(date).toHaveAccessibleDescription('The certificate date cannot be in the future'));
    // The first field named has the focus.
    expect(date).toHaveFocus();
    expect(within(form).getByRole('textbox', { name: 'Producer' })).toHaveAccessibleDescription('The producer is too long');
    const line = within(within(form).getByRole('group', { name: 'General liability' }));
    expect(line.getByRole('textbox', { name: 'Insurer' })).toHaveAccessibleDescription('The insurer is too long');
    expect(line.getByRole('textbox', { name: 'NAIC' })).toHaveAccessibleDescription('A NAIC code is five digits');
    // None is left for the list above the form.
    expect(form.querySelector('[data-reading-errors]')).toBeNull();
  });

  it("shows a 422's messages next to their fields, with no toast", async () => {
    addPortalReading(TOKEN);
    const { user } = await uploadCoi(TOKEN);
    const form = await within(await readingSection()).findByRole('form', { name: 'Correct what we read' });
    const aggregate = within(form).getByLabelText('General aggregate');
    await user.clear(aggregate);
    await user.type(aggregate, 'lots');
    const expiration = within(form).getByLabelText('Expiration date');
    await user.clear(expiration);
    await user.type(expiration, '2025-06-01');
    await user.click(within(form).getByRole('button', { name: 'Send corrections' }));

    await waitFor(() => expect(aggregate).toHaveAccessibleDescription('"lots" is not an amount'));
    expect(aggregate).toHaveAttribute('aria-invalid', 'true');
    expect(expiration).toHaveAccessibleDescription('The expiration date must be after the effective date');
    expect(within(form).getByLabelText('Each occurrence')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Could not send the corrections')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("toasts the server's message for any other refusal, and keeps the form", async () => {
    addPortalReading(TOKEN);
    server.use(
      http.put('/api/portal/reading', () =>
        HttpResponse.json(
          { error: 'reading_in_progress', message: 'Your certificate is still being read. Try again in a moment.' },
          { status: 409 },
        ),
      ),
    );
    const { user } = await uploadCoi(TOKEN);
    const form = await within(await readingSection()).findByRole('form', { name: 'Correct what we read' });
    await user.click(within(form).getByRole('button', { name: 'Send corrections' }));
    const toast = (await screen.findByText('Could not send the corrections')).closest('[role="status"]');
    expect(toast).not.toBeNull();
    expect(toast).toHaveTextContent('Your certificate is still being read. Try again in a moment.');
    expect(within(form).getByRole('button', { name: 'Send corrections' })).toBeEnabled();
  });

  it('"Looks right" finishes without sending anything', async () => {
    const entry = addPortalReading(TOKEN);
    const { user } = await uploadCoi(TOKEN);
    const form = await within(await readingSection()).findByRole('form', { name: 'Correct what we read' });
    await user.click(within(form).getByRole('button', { name: 'Looks right' }));
    expect(await screen.findByRole('dialog', { name: 'All documents uploaded' })).toBeInTheDocument();
    expect(entry.corrections).toEqual([]);
    expect(screen.queryByRole('form', { name: 'Correct what we read' })).not.toBeInTheDocument();
  });

  it('shows why a certificate could not be read, and nothing to do', async () => {
    addPortalReading(
      TOKEN,
      buildPortalReading({ status: 'failed', suggestion: null, reason: 'The AI service did not answer within 120 seconds' }),
    );
    await uploadCoi(TOKEN);
    const section = await readingSection();
    await waitFor(() => expect(section).toHaveTextContent('The AI service did not answer within 120 seconds'));
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
    expect(within(section).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(section).queryByRole('progressbar')).not.toBeInTheDocument();
  });
});
