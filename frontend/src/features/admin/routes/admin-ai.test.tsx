import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GenerateContentInput, GenerationJob } from '@/types/api';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { act, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

/** Bodies of every generate-content call; the mock server's handler still answers. */
function recordGenerateCalls() {
  const bodies: GenerateContentInput[] = [];
  server.events.on('request:start', async ({ request }) => {
    if (request.method === 'POST' && request.url.endsWith('/api/admin/generate-content')) {
      bodies.push((await request.clone().json()) as GenerateContentInput);
    }
  });
  return bodies;
}

async function openAdmin() {
  signInAs({ role: 'admin' });
  const app = renderApp('/admin');
  await screen.findByRole('heading', { name: 'Admin', level: 1 });
  return app;
}

async function openGenerate() {
  const app = await openAdmin();
  const button = screen.getByRole('button', { name: 'Generate with AI' });
  await waitFor(() => expect(button).toBeEnabled());
  await app.user.click(button);
  const dialog = await screen.findByRole('dialog', { name: 'Generate with AI' });
  return { ...app, dialog };
}

async function findToast(text: string) {
  await waitFor(() =>
    expect(screen.getAllByRole('status', { hidden: true }).some((el) => el.textContent?.includes(text))).toBe(true),
  );
}

/** One poll interval of the job (2 s) on the fake clock. */
const nextPoll = () => act(() => vi.advanceTimersByTimeAsync(2000));

afterEach(() => {
  server.events.removeAllListeners();
  vi.useRealTimers();
});

describe('Generate with AI', () => {
  it('starts with the defaults and says what it takes and costs', async () => {
    const { dialog } = await openGenerate();
    expect(within(dialog).getByText(/It takes 30-60 seconds and costs about \$0\.20 per post\./)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Category')).toHaveValue('Vendor Management');
    expect(within(dialog).getByLabelText('Word count')).toHaveValue(1200);
    expect(within(dialog).getByRole('button', { name: /Tone/ })).toHaveTextContent('Professional');
  });

  it('follows the job from queued to running to a ready draft with an Edit draft link', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const bodies = recordGenerateCalls();
    const { dialog, user } = await openGenerate();
    await user.type(within(dialog).getByLabelText('Target keywords'), 'vendor onboarding checklist, W-9 forms');
    await user.click(within(dialog).getByRole('button', { name: /Tone/ }));
    await user.click(await screen.findByRole('option', { name: 'Friendly' }));
    await user.clear(within(dialog).getByLabelText('Word count'));
    await user.type(within(dialog).getByLabelText('Word count'), '800');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));

    const status = await within(dialog).findByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Queued…'));
    expect(within(dialog).getByRole('progressbar', { name: 'Generating' })).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        targetKeywords: ['vendor onboarding checklist', 'W-9 forms'],
        category: 'Vendor Management',
        tone: 'friendly',
        wordCount: 800,
      },
    ]);

    await nextPoll();
    await waitFor(() => expect(status).toHaveTextContent('Writing the draft…'));
    await nextPoll();
    await waitFor(() => expect(status).toHaveTextContent('Draft ready'));
    expect(within(dialog).queryByRole('progressbar', { name: 'Generating' })).not.toBeInTheDocument();
    const job = db.content.jobs[0];
    expect(within(dialog).getByRole('link', { name: 'Edit draft' })).toHaveAttribute('href', `/admin/blog/edit/${job.postSlug}`);

    // The page learns about the new draft and the generation.
    await waitFor(() =>
      expect(screen.getAllByTestId('stat-card').find((c) => c.textContent?.startsWith('Drafts'))).toHaveTextContent('Drafts1'),
    );
  });

  it("shows a failed job's error and the toast 'Failed to generate AI content'", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    db.content.jobScript = ['queued', 'failed'];
    db.content.jobError = 'The AI service refused the request: quota exceeded.';
    const { dialog, user } = await openGenerate();
    await user.type(within(dialog).getByLabelText('Target keywords'), 'coi tracking');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const status = await within(dialog).findByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Queued…'));
    await nextPoll();
    await waitFor(() =>
      expect(status).toHaveTextContent('Generation failed: The AI service refused the request: quota exceeded.'),
    );
    await findToast('Failed to generate AI content');
    expect(within(dialog).queryByRole('link', { name: 'Edit draft' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(within(dialog).getByRole('button', { name: 'Generate' })).toBeEnabled();
    expect(within(dialog).getByLabelText('Target keywords')).toHaveValue('coi tracking');
  });

  it('checks the keywords and the word count before asking the server', async () => {
    const bodies = recordGenerateCalls();
    const { dialog, user } = await openGenerate();
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(within(dialog).getByText('Enter at least one keyword.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Target keywords'), 'a, b, c, d, e, f');
    await user.clear(within(dialog).getByLabelText('Word count'));
    await user.type(within(dialog).getByLabelText('Word count'), '200');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(within(dialog).getByText('Enter at most 5 keywords.')).toBeInTheDocument();
    expect(within(dialog).getByText('A whole number from 300 to 3000.')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('fills the keywords from Suggest keywords', async () => {
    db.content.suggestions = ['vendor risk', 'coi expiration', 'w-9 requirements', 'sales tax exemption'];
    const { dialog, user } = await openGenerate();
    await user.click(within(dialog).getByRole('button', { name: 'Suggest keywords' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Target keywords')).toHaveValue(
        'vendor risk, coi expiration, w-9 requirements, sales tax exemption',
      ),
    );
    expect(within(within(dialog).getByRole('list', { name: 'Keywords to target' })).getAllByRole('listitem')).toHaveLength(4);
  });

  it("says 'Failed to get keyword suggestions' when suggesting fails", async () => {
    const { dialog, user } = await openGenerate();
    server.use(
      http.get('/api/admin/suggest-keywords', () => HttpResponse.json({ error: 'internal', message: 'Boom.' }, { status: 500 })),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Suggest keywords' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to get keyword suggestions');
    await findToast('Failed to get keyword suggestions');
    expect(within(dialog).getByLabelText('Target keywords')).toHaveValue('');
  });

  it('opens prefilled from a suggested keyword', async () => {
    db.content.suggestions = ['vendor risk', 'coi expiration'];
    const { user } = await openAdmin();
    const list = await screen.findByRole('list', { name: 'Suggested keywords' });
    await user.click(within(list).getByRole('button', { name: 'Generate a post about coi expiration' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate with AI' });
    expect(within(dialog).getByLabelText('Target keywords')).toHaveValue('coi expiration');
  });

  it('says AI is not configured, and how to configure it, with generating disabled', async () => {
    db.content.aiConfigured = false;
    await openAdmin();
    const notes = await screen.findAllByRole('note', { name: 'AI is not configured' });
    expect(notes[0]).toHaveTextContent('OPENAI_API_KEY');
    expect(notes[0]).toHaveTextContent('OPENAI_BASE_URL');
    expect(notes[0]).toHaveTextContent('OPENAI_MODEL');
    expect(notes[0]).toHaveTextContent('restart');
    expect(screen.getByRole('button', { name: 'Generate with AI' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Create weekly plan' })).toBeDisabled();
    const list = await screen.findByRole('list', { name: 'Suggested keywords' });
    within(list)
      .getAllByRole('button')
      .forEach((button) => expect(button).toBeDisabled());
  });

  it('shows the same message when the server answers 503 ai_not_configured', async () => {
    const { dialog, user } = await openGenerate();
    // Only the call says so (content-stats still says configured): the key went since the page was read.
    server.use(
      http.post('/api/admin/generate-content', () =>
        HttpResponse.json({ error: 'ai_not_configured', message: 'AI is not configured.' }, { status: 503 }),
      ),
    );
    await user.type(within(dialog).getByLabelText('Target keywords'), 'coi tracking');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(await within(dialog).findByRole('note', { name: 'AI is not configured' })).toHaveTextContent('OPENAI_API_KEY');
    expect(within(dialog).getByRole('button', { name: 'Generate' })).toBeDisabled();
    expect(db.content.jobs).toEqual([]);
  });
});

describe('Recent generations', () => {
  function job(overrides: Partial<GenerationJob>): GenerationJob {
    return {
      id: 1,
      status: 'succeeded',
      keywords: ['vendor onboarding'],
      category: 'Vendor Management',
      tone: 'professional',
      wordCount: 1200,
      scheduledFor: null,
      postId: 42,
      postSlug: 'vendor-onboarding-guide',
      error: null,
      model: 'gpt-4o-mini',
      promptTokens: 350,
      completionTokens: 1650,
      cost: 0.43,
      createdAt: '2025-03-01T10:00:00Z',
      finishedAt: '2025-03-01T10:00:40Z',
      ...overrides,
    };
  }

  it('lists the jobs with their keywords, status, model, tokens, cost and post', async () => {
    db.content.jobs = [
      job({
        id: 2,
        status: 'failed',
        keywords: ['coi tracking'],
        error: 'Timed out.',
        postId: null,
        postSlug: null,
        cost: null,
        promptTokens: null,
        completionTokens: null,
      }),
      job({}),
    ];
    await openAdmin();
    const table = await screen.findByRole('table', { name: 'Recent generations' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('coi tracking');
    expect(rows[0]).toHaveTextContent('Failed');
    expect(rows[0]).toHaveTextContent('Timed out.');
    expect(within(rows[0]).queryByRole('link')).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('gpt-4o-mini');
    expect(rows[1]).toHaveTextContent('2,000');
    expect(rows[1]).toHaveTextContent('$0.43');
    expect(within(rows[1]).getByRole('link', { name: /Open post/ })).toHaveAttribute(
      'href',
      '/admin/blog/edit/vendor-onboarding-guide',
    );
  });

  it("says 'No results found.' when nothing was generated", async () => {
    await openAdmin();
    const table = await screen.findByRole('table', { name: 'Recent generations' });
    expect(within(table).getByText('No results found.')).toBeInTheDocument();
  });
});
