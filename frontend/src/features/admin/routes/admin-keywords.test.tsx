import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KeywordRow } from '@/types/api';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { act, fireEvent, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

const HEADER = 'Keyword,Search Volume,Difficulty,Priority,Category';

function csvFile(lines: string[], name = 'keywords.csv') {
  return new File([lines.join('\n')], name, { type: 'text/csv' });
}

/** 250 keyword rows after the header, one row without a keyword, and 'Keyword 7' again in capitals. */
function bigCsv() {
  const rows = Array.from({ length: 249 }, (_, i) => `keyword ${i + 1},${(i + 1) * 10},${(i % 100) + 1},high,SEO`);
  rows.splice(10, 0, ',500,10,low,SEO');
  rows.push('KEYWORD 7,70,7,low,SEO');
  return csvFile([HEADER, ...rows]);
}

/** Bodies of every upload call, in order; the mock server's handler still answers. */
function recordUploads() {
  const bodies: KeywordRow[][] = [];
  const times: number[] = [];
  server.events.on('request:start', async ({ request }) => {
    if (request.method !== 'POST' || !request.url.endsWith('/api/admin/keywords/upload')) return;
    times.push(performance.now());
    bodies.push(((await request.clone().json()) as { keywordData: KeywordRow[] }).keywordData);
  });
  return { bodies, times };
}

async function openUpload() {
  signInAs({ role: 'admin' });
  const app = renderApp('/admin');
  await app.user.click(await screen.findByRole('button', { name: 'Upload Keywords' }));
  const dialog = await screen.findByRole('dialog', { name: 'Upload Keywords' });
  return { ...app, dialog };
}

/** Picks a file (fireEvent: the input's accept list would make user-event drop a non-CSV file). */
function pick(dialog: HTMLElement, file: File) {
  fireEvent.change(within(dialog).getByLabelText('CSV file'), { target: { files: [file] } });
}

function keywordsCard() {
  return screen.getAllByTestId('stat-card').find((card) => card.textContent?.startsWith('Keywords'));
}

/** The toast: behind the open (modal) dialog it is outside the accessibility tree, hence hidden. */
async function findToast(text: string) {
  await waitFor(() =>
    expect(screen.getAllByRole('status', { hidden: true }).some((el) => el.textContent?.includes(text))).toBe(true),
  );
}

/** Paths of every GET, in order. */
function recordReads() {
  const paths: string[] = [];
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'GET') paths.push(new URL(request.url).pathname);
  });
  return paths;
}

afterEach(() => {
  server.events.removeAllListeners();
  vi.useRealTimers();
});

describe('Upload Keywords', () => {
  it("refuses a file that is not CSV with 'Please select a valid CSV file' and sends nothing", async () => {
    const uploads = recordUploads();
    const { dialog } = await openUpload();
    pick(dialog, new File(['keyword\nvendor onboarding'], 'keywords.xlsx', { type: 'application/vnd.ms-excel' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please select a valid CSV file');
    await findToast('Please select a valid CSV file');
    expect(within(dialog).queryByRole('button', { name: /^Upload \d/ })).not.toBeInTheDocument();
    expect(uploads.bodies).toEqual([]);
  });

  it("says 'Failed to process CSV file' when the file cannot be parsed", async () => {
    const { dialog } = await openUpload();
    pick(dialog, csvFile([HEADER, '"vendor onboarding,10,5,high,SEO', 'other,1,1,low,SEO']));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to process CSV file');
  });

  it('sends the rows in chunks of 100 with a pause between them, header and keyword-less rows left out, then counts the keywords', async () => {
    const uploads = recordUploads();
    const { dialog, user } = await openUpload();
    await waitFor(() => expect(keywordsCard()).toHaveTextContent('Keywords0'));
    pick(dialog, bigCsv());
    expect(
      await within(dialog).findByText(/250 keywords found in keywords\.csv; 1 row without a keyword will be skipped/),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Upload 250 keywords' }));

    await findToast('250 keywords accepted');
    expect(uploads.bodies.map((body) => body.length)).toEqual([100, 100, 50]);
    expect(uploads.bodies[0][0]).toEqual({
      keyword: 'keyword 1',
      searchVolume: '10',
      difficulty: '1',
      priority: 'high',
      category: 'SEO',
    });
    const sent = uploads.bodies.flat().map((row) => row.keyword);
    expect(sent).not.toContain('Keyword');
    expect(sent).not.toContain('');
    expect(sent.at(-1)).toBe('KEYWORD 7');
    // 500 ms between chunks (a little slack for the timer's rounding).
    expect(uploads.times[1] - uploads.times[0]).toBeGreaterThanOrEqual(490);
    expect(uploads.times[2] - uploads.times[1]).toBeGreaterThanOrEqual(490);

    const progress = within(dialog).getByRole('progressbar', { name: 'Upload progress' });
    expect(progress).toHaveAttribute('aria-valuenow', '100');
    expect(progress).toHaveAttribute('aria-valuetext', '3 of 3 chunks sent');
    // 'KEYWORD 7' merges into 'keyword 7': 249 distinct keywords.
    expect(await within(dialog).findByText('Done: 249 new keywords, 1 keyword merged into existing ones.')).toBeInTheDocument();
    await waitFor(() => expect(keywordsCard()).toHaveTextContent('Keywords249'));
  });

  it('shows how many chunks are sent while the upload runs, then the ingest progress', async () => {
    let releaseSecond!: () => void;
    const second = new Promise<void>((resolve) => (releaseSecond = resolve));
    let calls = 0;
    server.use(
      http.post('/api/admin/keywords/upload', async () => {
        calls += 1;
        if (calls === 2) await second;
      }),
    );
    db.content.ingestReadsToFinish = 1_000;
    const { dialog, user } = await openUpload();
    pick(dialog, bigCsv());
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 250 keywords' }));

    const progress = await within(dialog).findByRole('progressbar', { name: 'Upload progress' });
    await waitFor(() => expect(progress).toHaveAttribute('aria-valuetext', '1 of 3 chunks sent'));
    expect(progress).toHaveAttribute('aria-valuenow', '33');
    expect(within(dialog).getByRole('button', { name: 'Uploading...' })).toBeDisabled();
    expect(within(dialog).getByLabelText('CSV file')).toBeDisabled();
    releaseSecond();

    await waitFor(() => expect(progress).toHaveAttribute('aria-valuenow', '100'));
    const ingest = await within(dialog).findByRole('progressbar', { name: 'Ingest progress' });
    await waitFor(() => expect(ingest).toHaveAttribute('aria-valuetext', '0 of 3 chunks added'));
    expect(within(dialog).getByText('250 keywords accepted; adding them now.')).toBeInTheDocument();
    expect(keywordsCard()).toHaveTextContent('Adding uploaded keywords...');
  });

  it("shows the server's message and the refused rows when it answers 422, and stops sending", async () => {
    const uploads = recordUploads();
    const { dialog, user } = await openUpload();
    const rows = Array.from(
      { length: 150 },
      (_, i) => `keyword ${i + 1},10,${i === 120 ? 250 : 5},${i === 130 ? 'urgent' : 'low'},SEO`,
    );
    pick(dialog, csvFile([HEADER, ...rows]));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 150 keywords' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Some rows are invalid.');
    const refused = within(alert).getByRole('list', { name: 'Rows refused' });
    // Row 1 is the header: keyword 121 is row 122 of the file.
    expect(
      within(refused)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Row 122, difficulty: Difficulty must be between 1 and 100',
      'Row 132, priority: Priority must be high, medium or low',
    ]);
    await findToast('Failed to upload keywords');
    expect(within(dialog).getByText('100 keywords sent before the failure are still added.')).toBeInTheDocument();
    expect(uploads.bodies.map((body) => body.length)).toEqual([100, 50]);
  });

  it("says 'Failed to upload keywords' when the upload fails otherwise", async () => {
    server.use(
      http.post('/api/admin/keywords/upload', () => HttpResponse.json({ error: 'internal', message: 'Boom.' }, { status: 500 })),
    );
    const { dialog, user } = await openUpload();
    pick(dialog, csvFile([HEADER, 'vendor onboarding,10,5,high,SEO']));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 1 keyword' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to upload keywords');
    expect(alert).toHaveTextContent('Boom.');
  });

  it('reads the keyword count again every 5 s while an ingest runs, and stops once it is done', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    db.content.ingestReadsToFinish = 1_000;
    const { dialog, user } = await openUpload();
    pick(dialog, csvFile([HEADER, 'vendor onboarding,10,5,high,SEO', 'coi tracking,10,5,high,SEO']));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 2 keywords' }));
    await within(dialog).findByText('2 keywords accepted; adding them now.');
    const reads = recordReads();
    const counted = () => reads.filter((path) => path === '/api/admin/keywords/count').length;

    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(counted()).toBe(1));
    expect(reads).toContain('/api/admin/keyword-ingests/1');
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(counted()).toBe(2));

    db.content.ingestReadsToFinish = 0;
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(keywordsCard()).toHaveTextContent('Keywords2'));
    expect(keywordsCard()).not.toHaveTextContent('Adding uploaded keywords...');
    const afterDone = counted();
    await act(() => vi.advanceTimersByTimeAsync(15000));
    expect(counted()).toBe(afterDone);
  });
});
