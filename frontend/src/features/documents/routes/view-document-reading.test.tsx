import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildDocument } from '@/testing/mocks/fixtures';
import { ALLOWANCE_USED } from '@/testing/mocks/handlers/extractions';
import { http } from '@/testing/mocks/http';
import { server } from '@/testing/mocks/server';
import { act, recordGets, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';
import type { CoverageInput, CoverageSuggestion, Extraction } from '@/types/api';

/** What the reader found on the certificate of the tests below. */
const SUGGESTION: CoverageSuggestion = {
  certificateDate: '2026-03-15',
  insured: 'Granite Builders LLC',
  producer: 'Acme Insurance Agency',
  certificateHolder: 'Vendorwatch Demo Co',
  lines: [
    {
      line: 'general_liability',
      insurer: 'Hartford Fire Insurance Co',
      naic: '19682',
      policyNumber: 'GL-4431-09',
      effectiveDate: '2026-01-01',
      expirationDate: '2027-01-01',
      limits: { eachOccurrence: 500_000, generalAggregate: 2_000_000 },
      additionalInsured: true,
      waiverOfSubrogation: true,
    },
  ],
};

const CONFIDENCE: Record<string, number> = {
  certificateDate: 0.9,
  insured: 0.95,
  producer: 0.6,
  certificateHolder: 0.3,
  'lines[0].insurer': 0.9,
  'lines[0].naic': 0.85,
  'lines[0].policyNumber': 0.8,
  'lines[0].effectiveDate': 0.9,
  'lines[0].expirationDate': 0.49,
  'lines[0].limits.eachOccurrence': 0.5,
  'lines[0].limits.generalAggregate': 0.9,
  'lines[0].additionalInsured': 0.7,
  'lines[0].waiverOfSubrogation': 0.7,
};

const NOTES = ['lines[0].limits.productsCompletedOps was left out: Write an amount in whole dollars. (read: "lots")'];

function seedCoi(role: 'member' | 'viewer' = 'member', overrides: Parameters<typeof buildDocument>[0] = {}) {
  signInAs({ orgRole: role });
  db.documents = [
    buildDocument({
      id: 'doc-coi',
      vendorId: 'AAAAAAA1',
      vendor: 'Granite Builders LLC',
      fileName: 'coi.pdf',
      documentType: 'coi',
      coiType: 'general_liability',
      ...overrides,
    }),
  ];
}

function seedReading(reading: Partial<Extraction>) {
  const full: Extraction = {
    jobId: 'reading-1',
    status: 'done',
    notes: [],
    checks: [],
    createdAt: '2026-11-27T09:00:00Z',
    ...reading,
  };
  db.readings.byDocument.set('doc-coi', full);
  db.readings.read.add(full.jobId);
}

function seedDone(reading: Partial<Extraction> = {}) {
  seedReading({
    status: 'done',
    suggestion: SUGGESTION,
    confidence: CONFIDENCE,
    notes: NOTES,
    finishedAt: '2026-11-27T09:00:05Z',
    ...reading,
  });
}

async function panel() {
  const heading = await screen.findByRole('heading', { level: 2, name: 'Certificate coverage' });
  return within(heading.closest('section') as HTMLElement);
}

/** Bodies of every PUT of the coverage. */
function recordSaves() {
  const bodies: CoverageInput[] = [];
  server.events.on('request:start', async ({ request }) => {
    if (request.method === 'PUT' && request.url.endsWith('/api/documents/doc-coi/coverage')) {
      bodies.push((await request.clone().json()) as CoverageInput);
    }
  });
  return bodies;
}

async function findToast(text: string) {
  await waitFor(() => expect(screen.getAllByRole('status').some((el) => el.textContent?.includes(text))).toBe(true));
}

/** One poll interval of the reading (2 s) on the fake clock. */
const nextPoll = () => act(() => vi.advanceTimersByTimeAsync(2000));

afterEach(() => {
  vi.useRealTimers();
});

describe('view document: reading with AI', () => {
  it('says AI reading is off, offers no AI button, and the form still saves', async () => {
    db.content.aiConfigured = false;
    seedCoi();
    const reads = recordGets('/api/documents/doc-coi/extraction');
    const { user } = renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(await coverage.findByText('AI reading is off on this server. Enter the coverage by hand.')).toBeInTheDocument();
    expect(coverage.queryByRole('button', { name: /Read with AI|Read again|Accept/ })).not.toBeInTheDocument();
    await user.type(coverage.getByRole('textbox', { name: 'Producer' }), 'Acme Insurance Agency');
    await user.click(coverage.getByRole('button', { name: 'Save coverage' }));
    await findToast('Coverage saved');
    expect(db.documents[0]!.coverage).toMatchObject({ producer: 'Acme Insurance Agency', source: 'manual' });
    expect(reads).toHaveLength(0);
  });

  it('reads a certificate never read: Read with AI, a spinner while it reads, polled every 2 s, then the suggestion', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    seedCoi();
    db.readings.outcome = { suggestion: SUGGESTION, confidence: CONFIDENCE, notes: [] };
    const reads = recordGets('/api/documents/doc-coi/extraction');
    const { user } = renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(await coverage.findByText('Not read with AI yet.')).toBeInTheDocument();
    expect(coverage.queryByRole('button', { name: 'Accept all' })).not.toBeInTheDocument();

    await user.click(coverage.getByRole('button', { name: 'Read with AI' }));
    await findToast('Reading the certificate');
    const reading = await coverage.findByText('Reading the certificate…');
    expect(coverage.getByRole('progressbar', { name: 'Reading' })).toBeInTheDocument();
    expect(coverage.queryByRole('button', { name: 'Read with AI' })).not.toBeInTheDocument();
    const before = reads.length;
    await nextPoll();
    // Still running: asked again after 2 s, the spinner stays.
    await waitFor(() => expect(reads.length).toBe(before + 1));
    expect(reading).toBeInTheDocument();
    await nextPoll();
    expect(await coverage.findByRole('button', { name: 'Accept all' })).toBeInTheDocument();
    expect(coverage.queryByText('Reading the certificate…')).not.toBeInTheDocument();
    await findToast('Certificate read');
    // Done: no more asking.
    const after = reads.length;
    await nextPoll();
    await nextPoll();
    expect(reads.length).toBe(after);
  });

  it('polls a reading queued on upload without a click, and tells when it fails', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    seedCoi();
    db.readings.script = ['queued', 'failed'];
    db.readings.reason = 'The AI service did not answer within 120 seconds.';
    db.readings.byDocument.set('doc-coi', {
      jobId: 'reading-9',
      status: 'queued',
      notes: [],
      checks: [],
      createdAt: '2026-11-27T09:00:00Z',
    });
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(await coverage.findByText('Reading the certificate…')).toBeInTheDocument();
    await nextPoll();
    expect(
      await coverage.findByText('The AI reading failed: The AI service did not answer within 120 seconds.'),
    ).toBeInTheDocument();
    await findToast('The certificate could not be read');
    expect(coverage.getByRole('button', { name: 'Read again' })).toBeInTheDocument();
  });

  it('shows why a failed reading failed, with Read again', async () => {
    seedCoi();
    seedReading({ status: 'failed', reason: 'The model refused to read the certificate: not a certificate.' });
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(
      await coverage.findByText('The AI reading failed: The model refused to read the certificate: not a certificate.'),
    ).toBeInTheDocument();
    expect(coverage.getByRole('button', { name: 'Read again' })).toBeInTheDocument();
    expect(coverage.queryByRole('button', { name: 'Read with AI' })).not.toBeInTheDocument();
  });

  it('shows why an unavailable reading is, with Read with AI', async () => {
    seedCoi();
    const reason = 'This PDF has no text layer (a scan): the configured AI model does not read images.';
    seedReading({ status: 'unavailable', reason });
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(await coverage.findByText(reason)).toBeInTheDocument();
    expect(coverage.getByRole('button', { name: 'Read with AI' })).toBeInTheDocument();
  });

  it('gives a viewer the state without any button', async () => {
    seedCoi('viewer');
    seedReading({ status: 'failed', reason: 'The AI service did not answer within 120 seconds.' });
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(await coverage.findByText(/^The AI reading failed:/)).toBeInTheDocument();
    expect(coverage.queryByRole('button', { name: /Read/ })).not.toBeInTheDocument();
  });

  it('toasts the allowance used, in the server’s words', async () => {
    seedCoi();
    db.readings.allowanceUsed = true;
    const { user } = renderApp('/view-document/doc-coi');
    const coverage = await panel();
    await user.click(await coverage.findByRole('button', { name: 'Read with AI' }));
    await findToast('AI reading allowance used');
    await findToast(ALLOWANCE_USED);
    expect(coverage.getByText('Not read with AI yet.')).toBeInTheDocument();
  });

  it('toasts AI reading is off when the server has no AI key', async () => {
    seedCoi();
    server.use(
      http.post('/api/documents/{id}/extract', () =>
        HttpResponse.json({ error: 'ai_not_configured', message: 'AI is not configured on this server.' }, { status: 503 }),
      ),
    );
    const { user } = renderApp('/view-document/doc-coi');
    const coverage = await panel();
    await user.click(await coverage.findByRole('button', { name: 'Read with AI' }));
    await findToast('AI reading is off');
    await findToast('AI is not configured on this server.');
  });
});

describe('view document: what AI read, beside the form', () => {
  it('shows each value read under its field with its confidence in words, the notes and the certificate date', async () => {
    seedCoi();
    seedDone();
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    const form = within(await coverage.findByRole('form', { name: 'Certificate coverage' }));
    await form.findByRole('button', { name: 'Accept all' });

    const suggestionOf = (field: HTMLElement) => field.closest('div.min-w-0')!.querySelector('[data-testid="suggestion"]');
    expect(suggestionOf(form.getByLabelText('Certificate date'))).toHaveTextContent('Read: Mar 15, 2026 High confidence');
    expect(suggestionOf(form.getByRole('textbox', { name: 'Producer' }))).toHaveTextContent(
      'Read: Acme Insurance Agency Medium confidence',
    );
    expect(suggestionOf(form.getByRole('textbox', { name: 'Certificate holder' }))).toHaveTextContent(
      'Read: Vendorwatch Demo Co Low confidence',
    );
    // The insured read is what the form has (the vendor's name): nothing to accept.
    expect(suggestionOf(form.getByRole('textbox', { name: 'Insured' }))).toHaveTextContent(
      'In the form, as read High confidence',
    );
    expect(form.queryByRole('button', { name: 'Accept insured' })).not.toBeInTheDocument();

    // The line is not in the form yet: what was read of it is listed, each named.
    const read = within(form.getByRole('group', { name: 'General liability, read but not in the form' }));
    expect(read.getByText('Hartford Fire Insurance Co')).toBeInTheDocument();
    expect(read.getByText('Expiration date:').parentElement).toHaveTextContent('Expiration date: Jan 1, 2027 Low confidence');
    expect(read.getByText('Each occurrence:').parentElement).toHaveTextContent('Each occurrence: $500,000 Medium confidence');
    expect(read.getByText('Policy number:').parentElement).toHaveTextContent('Policy number: GL-4431-09 High confidence');
    expect(read.getByText('Additional insured:').parentElement).toHaveTextContent('Additional insured: Yes Medium confidence');

    const summary = within(form.getByTestId('reading-summary'));
    expect(summary.getByRole('heading', { name: 'Left out by the reader' })).toBeInTheDocument();
    expect(summary.getByRole('listitem')).toHaveTextContent(NOTES[0]!);
    expect(summary.getByText('This document has no expiration date: saving sets it to Jan 1, 2027.')).toBeInTheDocument();
  });

  it('names what to check before accepting: the insured, the date, the holder', async () => {
    seedCoi();
    const check = 'The certificate holder is Vendorwatch Demo Co, not Harbor Property Group.';
    seedDone({ checks: [check] });
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    await coverage.findByRole('button', { name: 'Accept all' });
    const checks = within(coverage.getByTestId('reading-checks'));
    expect(checks.getByRole('heading', { name: 'Check before you accept' })).toBeInTheDocument();
    expect(checks.getByRole('listitem')).toHaveTextContent(check);
  });

  it('says nothing of the expiration date when the document has one, nor of notes when there are none', async () => {
    seedCoi('member', { expirationDate: '2026-12-31' });
    seedDone({ notes: [] });
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    await coverage.findByRole('button', { name: 'Accept all' });
    expect(coverage.queryByText(/This document has no expiration date/)).not.toBeInTheDocument();
    expect(coverage.queryByText('Left out by the reader')).not.toBeInTheDocument();
    expect(coverage.queryByText('Check before you accept')).not.toBeInTheDocument();
  });

  it('copies one field per Accept, leaves what was typed, and saves as read and confirmed', async () => {
    seedCoi();
    seedDone();
    const saves = recordSaves();
    const { user } = renderApp('/view-document/doc-coi');
    const coverage = await panel();
    const form = within(await coverage.findByRole('form', { name: 'Certificate coverage' }));
    await form.findByRole('button', { name: 'Accept all' });
    const producer = form.getByRole('textbox', { name: 'Producer' });
    await user.type(producer, 'Typed Agency');
    const holder = form.getByRole('textbox', { name: 'Certificate holder' });

    await user.click(form.getByRole('button', { name: 'Accept certificate holder' }));
    expect(holder).toHaveValue('Vendorwatch Demo Co');
    // The focus goes to the field accepted, to check it; what was typed elsewhere stays.
    expect(holder).toHaveFocus();
    expect(producer).toHaveValue('Typed Agency');
    expect(form.getByLabelText('Certificate date')).toHaveValue('');
    await findToast('Certificate holder accepted');

    // Accepting a value of a line not in the form adds the line with that value alone.
    await user.click(form.getByRole('button', { name: 'Accept policy number' }));
    const line = within(form.getByRole('group', { name: 'General liability' }));
    expect(line.getByRole('textbox', { name: 'Policy number' })).toHaveValue('GL-4431-09');
    expect(line.getByRole('textbox', { name: 'Policy number' })).toHaveFocus();
    expect(line.getByRole('textbox', { name: 'Insurer' })).toHaveValue('');
    expect(line.getByRole('textbox', { name: 'Each occurrence' })).toHaveValue('');
    expect(line.getByRole('checkbox', { name: 'Additional insured' })).not.toBeChecked();
    expect(form.queryByRole('group', { name: 'General liability, read but not in the form' })).not.toBeInTheDocument();
    // The rest of what was read now sits under the line's fields.
    await user.click(line.getByRole('button', { name: 'Accept each occurrence' }));
    expect(line.getByRole('textbox', { name: 'Each occurrence' })).toHaveValue('$500,000');
    expect(line.getByRole('textbox', { name: 'General aggregate' })).toHaveValue('');
    await user.click(line.getByRole('button', { name: 'Accept additional insured' }));
    expect(line.getByRole('checkbox', { name: 'Additional insured' })).toBeChecked();
    expect(line.getByRole('checkbox', { name: 'Waiver of subrogation' })).not.toBeChecked();

    await user.click(form.getByRole('button', { name: 'Save coverage' }));
    await findToast('Coverage saved');
    expect(saves).toHaveLength(1);
    expect(saves[0]).toMatchObject({
      confirmed: true,
      certificateDate: null,
      producer: 'Typed Agency',
      certificateHolder: 'Vendorwatch Demo Co',
      lines: [{ line: 'general_liability', policyNumber: 'GL-4431-09', insurer: null, limits: { eachOccurrence: '$500,000' } }],
    });
    expect(await coverage.findByText('Saved. Source: Read from the certificate automatically and checked')).toBeInTheDocument();
  });

  it('copies every value read with Accept all, over what was typed, then saves them', async () => {
    seedCoi();
    seedDone();
    const saves = recordSaves();
    const { user } = renderApp('/view-document/doc-coi');
    const coverage = await panel();
    const form = within(await coverage.findByRole('form', { name: 'Certificate coverage' }));
    await user.type(form.getByRole('textbox', { name: 'Producer' }), 'Typed Agency');
    await user.click(await form.findByRole('button', { name: 'Accept all' }));
    await findToast('Every value read is in the form');
    expect(form.getByLabelText('Certificate date')).toHaveValue('2026-03-15');
    expect(form.getByRole('textbox', { name: 'Producer' })).toHaveValue('Acme Insurance Agency');
    const line = within(form.getByRole('group', { name: 'General liability' }));
    expect(line.getByRole('textbox', { name: 'Insurer' })).toHaveValue('Hartford Fire Insurance Co');
    expect(line.getByRole('textbox', { name: 'NAIC' })).toHaveValue('19682');
    expect(line.getByLabelText('Effective date')).toHaveValue('2026-01-01');
    expect(line.getByLabelText('Expiration date')).toHaveValue('2027-01-01');
    expect(line.getByRole('textbox', { name: 'General aggregate' })).toHaveValue('$2,000,000');
    expect(line.getByRole('checkbox', { name: 'Waiver of subrogation' })).toBeChecked();
    // Everything read is in the form: no Accept is left beside a field.
    expect(form.queryAllByRole('button', { name: /^Accept (?!all)/ })).toHaveLength(0);

    await user.click(form.getByRole('button', { name: 'Save coverage' }));
    await findToast('Coverage saved');
    expect(saves[0]).toMatchObject({ confirmed: true, certificateDate: '2026-03-15' });
    expect(db.documents[0]!.coverage).toMatchObject({
      source: 'confirmed',
      certificateDate: '2026-03-15',
      lines: [{ policyNumber: 'GL-4431-09', limits: { eachOccurrence: 500_000, generalAggregate: 2_000_000 } }],
    });
    expect(await coverage.findByText('Saved. Source: Read from the certificate automatically and checked')).toBeInTheDocument();
    // The document took the line's expiration date.
    expect(await screen.findByText('Expires Jan 1, 2027')).toBeInTheDocument();
  });

  it('saves as entered by hand when nothing read was accepted', async () => {
    seedCoi();
    seedDone();
    const saves = recordSaves();
    const { user } = renderApp('/view-document/doc-coi');
    const coverage = await panel();
    await coverage.findByRole('button', { name: 'Accept all' });
    await user.type(coverage.getByRole('textbox', { name: 'Producer' }), 'Typed Agency');
    await user.click(coverage.getByRole('button', { name: 'Save coverage' }));
    await findToast('Coverage saved');
    expect(saves[0]).toMatchObject({ confirmed: false, producer: 'Typed Agency' });
    expect(await coverage.findByText('Saved. Source: Entered by hand')).toBeInTheDocument();
  });

  it('works from the keyboard: Accept by Enter, the focus on the field accepted', async () => {
    seedCoi();
    seedDone();
    const { user } = renderApp('/view-document/doc-coi');
    const coverage = await panel();
    const accept = await coverage.findByRole('button', { name: 'Accept producer' });
    accept.focus();
    await user.keyboard('{Enter}');
    const producer = coverage.getByRole('textbox', { name: 'Producer' });
    expect(producer).toHaveValue('Acme Insurance Agency');
    expect(producer).toHaveFocus();
    // Tab goes on to the next value to accept.
    await user.tab();
    expect(coverage.getByRole('textbox', { name: 'Certificate holder' })).toHaveFocus();
    await user.tab();
    expect(coverage.getByRole('button', { name: 'Accept certificate holder' })).toHaveFocus();
  });

  it('shows a viewer no suggestion to accept', async () => {
    seedCoi('viewer');
    seedDone();
    renderApp('/view-document/doc-coi');
    const coverage = await panel();
    expect(await coverage.findByText(/^Read by AI\. Members and admins accept/)).toBeInTheDocument();
    expect(coverage.queryByRole('button', { name: /Accept/ })).not.toBeInTheDocument();
  });
});
