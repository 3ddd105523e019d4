import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import type { GenerateContentInput, GenerationJob, KeywordRow, WeeklyPlan } from '@/types/api';
import { db } from '../db';
import { buildBlogPost } from '../fixtures';
import { apiError } from '../utils';
import { refuseNonAdmin } from './blog';

/** The server's built-in suggestions when no keyword is unused. */
export const FALLBACK_SUGGESTIONS = [
  'vendor compliance checklist',
  'certificate of insurance tracking',
  'w-9 form requirements',
  'vendor onboarding process',
];
const PRIORITIES = ['high', 'medium', 'low'];
const TONES = ['professional', 'friendly', 'authoritative', 'conversational', 'educational'];
const PLAN_COSTS: Record<number, number> = { 3: 9, 5: 15, 7: 21 };

const notConfigured = () =>
  apiError(503, 'ai_not_configured', 'AI is not configured on this server: set OPENAI_API_KEY and restart it.');

/** The server's row checks (docs/product.md, "Content engine"): a bad row refuses the whole upload. */
function checkRows(rows: Partial<KeywordRow>[]) {
  const errors: Record<string, string[]> = {};
  const kept: KeywordRow[] = [];
  let dropped = 0;
  rows.forEach((row, i) => {
    const keyword = String(row.keyword ?? '').trim();
    if (!keyword) {
      dropped += 1;
      return;
    }
    const difficulty = String(row.difficulty ?? '').trim();
    if (difficulty && !(Number.isInteger(Number(difficulty)) && Number(difficulty) >= 1 && Number(difficulty) <= 100)) {
      errors[`keywordData[${i}].difficulty`] = ['Difficulty must be between 1 and 100'];
    }
    const priority =
      String(row.priority ?? '')
        .trim()
        .toLowerCase() || 'medium';
    if (!PRIORITIES.includes(priority)) errors[`keywordData[${i}].priority`] = ['Priority must be high, medium or low'];
    kept.push({
      keyword,
      searchVolume: String(row.searchVolume ?? ''),
      difficulty,
      priority,
      category: String(row.category ?? '').trim() || 'Vendor Management',
    });
  });
  return { errors, kept, dropped };
}

/** An ingest adds its rows once done: new keywords are inserted, known ones (any case) merged. */
function finishIngest(ingest: (typeof db.content.ingests)[number]) {
  ingest.rows.forEach((row) => {
    // Rows without a keyword were dropped on upload.
    const key = (row.keyword ?? '').toLowerCase();
    if (db.content.keywords.has(key)) ingest.merged += 1;
    else {
      db.content.keywords.set(key, row);
      ingest.inserted += 1;
    }
  });
  ingest.chunksDone = ingest.chunks;
  ingest.done = true;
}

let jobSequence = 0;
let postSequence = 100;

function newJob(
  input: { keywords: string[]; category?: string | null; tone?: string | null; wordCount?: number | null },
  scheduledFor: string | null,
) {
  jobSequence += 1;
  const job: GenerationJob = {
    id: jobSequence,
    status: scheduledFor ? 'scheduled' : db.content.jobScript[0],
    keywords: input.keywords,
    category: input.category ?? 'Vendor Management',
    tone: input.tone ?? 'professional',
    wordCount: input.wordCount ?? 1200,
    scheduledFor,
    postId: null,
    postSlug: null,
    error: null,
    model: null,
    promptTokens: null,
    completionTokens: null,
    cost: null,
    createdAt: new Date().toISOString(),
    finishedAt: null,
  };
  db.content.jobs.unshift(job);
  return job;
}

/** Moves a job one step along the script; a job that succeeds saves its draft. */
function advance(job: GenerationJob) {
  if (job.scheduledFor) return;
  const script = db.content.jobScript;
  const next = script[Math.min(script.indexOf(job.status) + 1, script.length - 1)];
  if (next === job.status) return;
  job.status = next;
  if (next === 'succeeded') {
    postSequence += 1;
    const title = `${job.keywords[0]}: a practical guide`;
    const post = buildBlogPost({ id: postSequence, slug: `ai-post-${postSequence}`, title });
    db.blogPosts.push(post);
    Object.assign(job, {
      postId: postSequence,
      postSlug: post.slug,
      model: db.content.aiModel,
      promptTokens: 400,
      completionTokens: 1800,
      cost: 0.0021,
      finishedAt: new Date().toISOString(),
    });
    db.content.generationsThisMonth += 1;
    db.content.generationCostThisMonth += 0.0021;
  }
  if (next === 'failed') Object.assign(job, { error: db.content.jobError, finishedAt: new Date().toISOString() });
}

function activePlan(): WeeklyPlan | null {
  return db.content.weeklyPlan?.status === 'active' ? db.content.weeklyPlan : null;
}

export const contentHandlers = [
  http.get('/api/admin/content-stats', ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const c = db.content;
    return HttpResponse.json({
      aiConfigured: c.aiConfigured,
      aiModel: c.aiConfigured ? c.aiModel : null,
      keywords: c.keywords.size,
      unusedKeywords: c.keywords.size,
      generationsThisMonth: c.generationsThisMonth,
      generationCostThisMonth: c.generationCostThisMonth,
      readingsThisMonth: 12,
      readingCostThisMonth: 0.05,
    });
  }),
  http.get('/api/admin/keywords/count', ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    return HttpResponse.json({ count: db.content.keywords.size });
  }),
  http.post('/api/admin/keywords/upload', async ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const body = (await request.json()) as { keywordData?: Partial<KeywordRow>[] };
    const { errors, kept, dropped } = checkRows(body.keywordData ?? []);
    if (Object.keys(errors).length) return apiError(422, 'validation_failed', 'Some rows are invalid.', errors);
    const chunks = Math.ceil(kept.length / 100);
    const ingest = {
      id: db.content.ingests.length + 1,
      accepted: kept.length,
      dropped,
      chunks,
      chunksDone: 0,
      inserted: 0,
      merged: 0,
      done: chunks === 0,
      rows: kept,
    };
    db.content.ingests.push(ingest);
    return HttpResponse.json({ accepted: kept.length, dropped, chunks, ingestId: ingest.id }, { status: 202 });
  }),
  http.get('/api/admin/keyword-ingests/{id}', ({ request, params }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const ingest = db.content.ingests.find((i) => i.id === Number(params.id));
    if (!ingest) return apiError(404, 'not_found', 'Not found.');
    if (!ingest.done) {
      if (db.content.ingestReadsToFinish > 0) db.content.ingestReadsToFinish -= 1;
      else finishIngest(ingest);
    }
    const { rows: _rows, ...progress } = ingest;
    return HttpResponse.json(progress);
  }),
  http.get('/api/admin/suggest-keywords', ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const count = Number(new URL(request.url).searchParams.get('count') ?? 4);
    return HttpResponse.json((db.content.suggestions ?? FALLBACK_SUGGESTIONS).slice(0, count));
  }),
  http.post('/api/admin/generate-content', async ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    if (!db.content.aiConfigured) return notConfigured();
    const body = (await request.json()) as GenerateContentInput;
    const errors: Record<string, string[]> = {};
    const keywords = body.targetKeywords ?? [];
    if (keywords.length < 1 || keywords.length > 5) errors.targetKeywords = ['Give 1 to 5 keywords'];
    if (body.tone != null && !TONES.includes(body.tone)) errors.tone = ['Unknown tone'];
    if (body.wordCount != null && (body.wordCount < 300 || body.wordCount > 3000)) {
      errors.wordCount = ['Word count must be between 300 and 3000'];
    }
    if (Object.keys(errors).length) return apiError(422, 'validation_failed', 'Some fields are invalid.', errors);
    const job = newJob({ ...body, keywords }, null);
    return HttpResponse.json({ jobId: job.id }, { status: 202 });
  }),
  http.get('/api/admin/generation-jobs', ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    return HttpResponse.json({ jobs: db.content.jobs.slice(0, 20) });
  }),
  http.get('/api/admin/generation-jobs/{id}', ({ request, params }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const job = db.content.jobs.find((j) => j.id === Number(params.id));
    if (!job) return apiError(404, 'not_found', 'Not found.');
    // The first read shows the status the job was queued with; each later read moves it on.
    if (db.content.readJobs.has(job.id)) advance(job);
    db.content.readJobs.add(job.id);
    return HttpResponse.json(job);
  }),
  http.get('/api/admin/weekly-plan', ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    return HttpResponse.json({ weeklyPlan: db.content.weeklyPlan });
  }),
  http.post('/api/admin/generate-weekly-plan', async ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    if (!db.content.aiConfigured) return notConfigured();
    const { postsPerWeek } = (await request.json()) as { postsPerWeek?: number };
    if (!postsPerWeek || !(postsPerWeek in PLAN_COSTS)) {
      return apiError(422, 'validation_failed', 'Some fields are invalid.', { postsPerWeek: ['Choose 3, 5 or 7'] });
    }
    if (activePlan()) return apiError(409, 'conflict', 'A weekly plan is already running. Cancel it to start another.');
    const keywords = db.content.suggestions ?? FALLBACK_SUGGESTIONS;
    const start = Date.parse('2025-03-03T09:00:00Z');
    const plan = Array.from({ length: postsPerWeek }, (_, i) => {
      const keyword = keywords[i % keywords.length];
      const scheduledFor = new Date(start + (i % 5) * 86_400_000).toISOString();
      const job = newJob({ keywords: [keyword] }, scheduledFor);
      return { jobId: job.id, keyword, scheduledFor, status: job.status, postId: null };
    });
    db.content.weeklyPlan = {
      id: (db.content.weeklyPlan?.id ?? 0) + 1,
      postsPerWeek,
      monthlyCost: PLAN_COSTS[postsPerWeek],
      status: 'active',
      createdAt: new Date().toISOString(),
      plan,
    };
    return HttpResponse.json(db.content.weeklyPlan, { status: 201 });
  }),
  http.delete('/api/admin/weekly-plan', ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const plan = activePlan();
    if (!plan) return apiError(404, 'not_found', 'No weekly plan is active.');
    plan.status = 'cancelled';
    plan.plan = plan.plan.map((item) => (item.status === 'scheduled' ? { ...item, status: 'cancelled' } : item));
    db.content.jobs.forEach((job) => {
      if (job.status === 'scheduled') job.status = 'cancelled';
    });
    return HttpResponse.json(plan);
  }),
];
