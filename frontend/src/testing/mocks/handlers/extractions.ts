import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import type { Extraction, OrgRole } from '@/types/api';
import { accountFromRequest, db } from '../db';
import { apiError, unauthorized } from '../utils';

const RANK: Record<OrgRole, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** The 402 past the month's readings, in the server's words. */
export const ALLOWANCE_USED =
  "The Free plan reads 10 certificates with AI a month, and this month's are used. Enter the coverage by hand, or upgrade for more.";
export const AI_NOT_CONFIGURED =
  'AI is not configured on this server. Set OPENAI_API_KEY (and OPENAI_BASE_URL for another OpenAI-compatible service) and restart it.';

/** A reading one step further along the script; the last step answers the outcome or the reason. */
function advance(reading: Extraction) {
  const script = db.readings.script;
  const at = script.indexOf(reading.status);
  // A reading that has ended, or one seeded outside the script, stays as it is.
  if (at === -1 || !(reading.status === 'queued' || reading.status === 'running')) return;
  const next = script[at + 1];
  if (!next) return;
  reading.status = next;
  if (next === 'done') {
    Object.assign(reading, db.readings.outcome, { model: 'gpt-4o-mini-2024-07-18', costUsd: 0.0021 });
  }
  if (next === 'failed' || next === 'unavailable') reading.reason = db.readings.reason;
  if (next === 'done' || next === 'failed' || next === 'unavailable') reading.finishedAt = new Date().toISOString();
}

/** Certificates read with AI (docs/product.md, "Reading certificates with AI"). */
export const extractionHandlers = [
  http.post('/api/documents/{id}/extract', ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (RANK[account.orgRole] < RANK.member) return apiError(403, 'forbidden_role', 'Viewers can look but not change anything.');
    const doc = db.documents.find((d) => d.id === params.id);
    if (!doc) return apiError(404, 'not_found', 'Not found.');
    if (doc.documentType !== 'coi')
      return apiError(422, 'validation_failed', 'Only certificates of insurance are read with AI.', {
        documentType: ['Only certificates of insurance are read with AI.'],
      });
    if (!db.content.aiConfigured) return apiError(503, 'ai_not_configured', AI_NOT_CONFIGURED);
    const current = db.readings.byDocument.get(doc.id);
    // A reading already under way is answered instead of a second.
    if (current && (current.status === 'queued' || current.status === 'running'))
      return HttpResponse.json({ jobId: current.jobId }, { status: 202 });
    if (db.readings.allowanceUsed) return apiError(402, 'plan_limit', ALLOWANCE_USED);
    const reading: Extraction = {
      jobId: `reading-${db.readings.byDocument.size + 1}-${Date.now()}`,
      status: db.readings.script[0] ?? 'queued',
      notes: [],
      checks: [],
      createdAt: new Date().toISOString(),
    };
    db.readings.byDocument.set(doc.id, reading);
    return HttpResponse.json({ jobId: reading.jobId }, { status: 202 });
  }),
  http.get('/api/documents/{id}/extraction', ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (!db.documents.some((d) => d.id === params.id)) return apiError(404, 'not_found', 'Not found.');
    const reading = db.readings.byDocument.get(params.id);
    if (!reading) return apiError(404, 'not_found', 'This document was never read.');
    if (db.readings.read.has(reading.jobId)) advance(reading);
    db.readings.read.add(reading.jobId);
    return HttpResponse.json(reading);
  }),
];
