import { HttpResponse } from 'msw';
import { BULK_ID_LIMIT } from '@/config';
import { http } from '@/testing/mocks/http';
import type {
  CoverageLineKey,
  OrgRole,
  RequirementLine,
  RequirementSet,
  RequirementTemplate,
  WaiverInput,
  WaiverResponse,
} from '@/types/api';
import { accountFromRequest, db, type MockAccount } from '../db';
import { apiError, unauthorized } from '../utils';

const RANK: Record<OrgRole, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

const LIMITS: Record<CoverageLineKey, string[]> = {
  general_liability: [
    'eachOccurrence',
    'generalAggregate',
    'productsCompletedOps',
    'personalAdvertisingInjury',
    'damageToRentedPremises',
    'medicalExpense',
  ],
  automobile: ['combinedSingleLimit'],
  workers_comp: [
    'employersLiabilityEachAccident',
    'employersLiabilityDiseaseEachEmployee',
    'employersLiabilityDiseasePolicyLimit',
  ],
  umbrella: ['eachOccurrence', 'aggregate'],
  professional: ['eachClaim', 'aggregate'],
};

export const AMOUNT_HELP = 'Write an amount in whole dollars, like 1000000, 1,000,000 or $1M.';

/** An amount as the server reads what people type: 1000000, "1,000,000", "$1M", "2.5m", "500K"; null when unreadable. */
export function readAmount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const match = /^\$?\s*([\d,]+(?:\.\d+)?)\s*([kKmM]?)$/.exec(value.trim());
  if (!match) return null;
  const number = Number(match[1].replace(/,/g, ''));
  const scale = match[2].toLowerCase() === 'm' ? 1_000_000 : match[2].toLowerCase() === 'k' ? 1000 : 1;
  const amount = number * scale;
  return Number.isFinite(amount) && Number.isInteger(amount) ? amount : null;
}

/** Reads typed limits of `line` into whole dollars; problems under `${prefix}.${key}`. */
export function readLimits(
  line: CoverageLineKey,
  limits: Record<string, unknown> | undefined,
  prefix: string,
  errors: Record<string, string[]>,
): Record<string, number> {
  const read: Record<string, number> = {};
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (!LIMITS[line].includes(key)) {
      errors[`${prefix}.${key}`] = [`${key} is not a limit of this line.`];
      continue;
    }
    const amount = readAmount(value);
    if (amount === null) errors[`${prefix}.${key}`] = [AMOUNT_HELP];
    else read[key] = amount;
  }
  return read;
}

export const TEMPLATES: RequirementTemplate[] = [
  {
    key: 'general_contractor',
    name: 'General contractor',
    description:
      '$1M/$2M general liability with additional insured and waiver of subrogation, $1M auto, $500K employer’s liability, $5M umbrella.',
    lines: [
      {
        line: 'general_liability',
        minimums: { eachOccurrence: 1_000_000, generalAggregate: 2_000_000 },
        additionalInsured: true,
        waiverOfSubrogation: true,
      },
      { line: 'automobile', minimums: { combinedSingleLimit: 1_000_000 }, additionalInsured: false, waiverOfSubrogation: false },
      {
        line: 'workers_comp',
        minimums: { employersLiabilityEachAccident: 500_000 },
        additionalInsured: false,
        waiverOfSubrogation: false,
      },
      { line: 'umbrella', minimums: { eachOccurrence: 5_000_000 }, additionalInsured: false, waiverOfSubrogation: false },
    ],
  },
  {
    key: 'professional_services',
    name: 'Professional services',
    description: '$1M/$2M general and professional liability.',
    lines: [
      {
        line: 'general_liability',
        minimums: { eachOccurrence: 1_000_000, generalAggregate: 2_000_000 },
        additionalInsured: false,
        waiverOfSubrogation: false,
      },
      {
        line: 'professional',
        minimums: { eachClaim: 1_000_000, aggregate: 2_000_000 },
        additionalInsured: false,
        waiverOfSubrogation: false,
      },
    ],
  },
  {
    key: 'low_risk_supplier',
    name: 'Low-risk supplier',
    description: '$1M/$2M general liability.',
    lines: [
      {
        line: 'general_liability',
        minimums: { eachOccurrence: 1_000_000, generalAggregate: 2_000_000 },
        additionalInsured: false,
        waiverOfSubrogation: false,
      },
    ],
  },
];

const ADMINS_ONLY = 'Only admins and the owner of your team can change requirement sets.';

type SetBody = {
  name?: unknown;
  lines?: { line?: unknown; minimums?: Record<string, unknown>; additionalInsured?: unknown; waiverOfSubrogation?: unknown }[];
};

/** The set form read as the server reads it, with every problem named. */
function readSet(
  body: SetBody,
  id: string | null,
): { set: Omit<RequirementSet, 'id' | 'vendorCount'> } | { errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (!name) errors.name = ['Enter a name for the set.'];
  else if (db.requirementSets.some((s) => s.id !== id && s.name.toLowerCase() === name.toLowerCase()))
    errors.name = [`A set named ${name} already exists.`];
  const lines: RequirementLine[] = [];
  (body.lines ?? []).forEach((raw, index) => {
    const line = raw.line as CoverageLineKey;
    if (!(line in LIMITS)) {
      errors[`lines[${index}].line`] = ['Choose a line of insurance.'];
      return;
    }
    if (lines.some((l) => l.line === line)) errors[`lines[${index}].line`] = ['This line is in the set already.'];
    lines.push({
      line,
      minimums: readLimits(line, raw.minimums, `lines[${index}].minimums`, errors),
      additionalInsured: raw.additionalInsured === true,
      waiverOfSubrogation: raw.waiverOfSubrogation === true,
    });
  });
  return Object.keys(errors).length > 0 ? { errors } : { set: { name, lines } };
}

function refuseWrite(account: MockAccount) {
  return RANK[account.orgRole] < RANK.admin ? apiError(403, 'forbidden_role', ADMINS_ONLY) : null;
}

const withCount = (set: RequirementSet): RequirementSet => ({
  ...set,
  vendorCount: db.vendors.filter((v) => v.requirementSetId === set.id).length,
});

export const requirementHandlers = [
  http.get('/api/requirement-sets', ({ request }) => {
    if (!accountFromRequest(request)) return unauthorized();
    const sets = [...db.requirementSets].sort((a, b) => a.name.localeCompare(b.name)).map(withCount);
    return HttpResponse.json(sets);
  }),
  http.get('/api/requirement-sets/templates', ({ request }) => {
    if (!accountFromRequest(request)) return unauthorized();
    return HttpResponse.json(TEMPLATES);
  }),
  http.post('/api/requirement-sets', async ({ request }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    const refused = refuseWrite(account);
    if (refused) return refused;
    const read = readSet((await request.json()) as SetBody, null);
    if ('errors' in read) return apiError(422, 'validation_failed', 'Some fields need attention.', read.errors);
    const set: RequirementSet = { id: `set-${db.requirementSets.length + 1}-${Date.now()}`, vendorCount: 0, ...read.set };
    db.requirementSets.push(set);
    return HttpResponse.json(withCount(set), { status: 201 });
  }),
  http.get('/api/requirement-sets/{id}', ({ request, params }) => {
    if (!accountFromRequest(request)) return unauthorized();
    const set = db.requirementSets.find((s) => s.id === params.id);
    if (!set) return apiError(404, 'not_found', 'No such requirement set.');
    return HttpResponse.json(withCount(set));
  }),
  http.put('/api/requirement-sets/{id}', async ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    const refused = refuseWrite(account);
    if (refused) return refused;
    const set = db.requirementSets.find((s) => s.id === params.id);
    if (!set) return apiError(404, 'not_found', 'No such requirement set.');
    const read = readSet((await request.json()) as SetBody, set.id);
    if ('errors' in read) return apiError(422, 'validation_failed', 'Some fields need attention.', read.errors);
    Object.assign(set, read.set);
    return HttpResponse.json(withCount(set));
  }),
  http.post('/api/vendors/requirement-set', async ({ request }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (RANK[account.orgRole] < RANK.member) return apiError(403, 'forbidden_role', 'Viewers can look but not change anything.');
    const body = (await request.json()) as { ids?: unknown; requirementSetId?: unknown };
    const ids = Array.isArray(body.ids) ? body.ids.filter((id): id is string => typeof id === 'string') : [];
    if (ids.length === 0 || ids.length > BULK_ID_LIMIT) {
      const message = ids.length === 0 ? 'Choose at least one.' : `At most ${BULK_ID_LIMIT} at a time.`;
      return apiError(422, 'validation_failed', message, { ids: [message] });
    }
    const setId = typeof body.requirementSetId === 'string' ? body.requirementSetId : null;
    if (setId !== null && !db.requirementSets.some((s) => s.id === setId)) {
      return apiError(422, 'validation_failed', 'Some fields need attention.', {
        requirementSetId: ['Choose one of your requirement sets.'],
      });
    }
    const vendors = ids.map((id) => db.vendors.find((v) => v.id === id));
    if (vendors.some((v) => !v)) return apiError(404, 'not_found', 'One or more of them were not found.');
    for (const vendor of vendors) {
      // The mock does not measure certificates: a vendor keeps the gaps it was given, none without a set.
      if (setId === null) Object.assign(vendor!, { requirementSetId: null, gaps: [], meetsRequirements: true });
      else vendor!.requirementSetId = setId;
    }
    return HttpResponse.json({ updated: vendors.length });
  }),
  http.post('/api/vendors/{id}/gap-request', ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (RANK[account.orgRole] < RANK.member) return apiError(403, 'forbidden_role', 'Viewers can look but not change anything.');
    const vendor = db.vendors.find((v) => v.id === params.id);
    if (!vendor) return apiError(404, 'not_found', 'Not found.');
    const counting = vendor.gaps.filter((g) => !g.waived).map((g) => g.message);
    if (counting.length === 0)
      return apiError(409, 'nothing_to_correct', 'This vendor meets its requirements: there is nothing to correct.');
    if (db.gapRequests.includes(vendor.id))
      return apiError(
        429,
        'already_requested',
        `${vendor.name} was asked for corrections today already. You can ask again tomorrow.`,
      );
    db.gapRequests.push(vendor.id);
    return HttpResponse.json({ id: vendor.id, email: vendor.email, gaps: counting });
  }),
  http.post('/api/vendors/{id}/waivers', async ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (RANK[account.orgRole] < RANK.member) return apiError(403, 'forbidden_role', 'Viewers can look but not change anything.');
    const vendor = db.vendors.find((v) => v.id === params.id);
    if (!vendor) return apiError(404, 'not_found', 'Not found.');
    const body = (await request.json()) as Partial<WaiverInput>;
    const errors: Record<string, string[]> = {};
    if (!body.reason?.trim()) errors.reason = ['Say why the gap is waived.'];
    const today = new Date().toISOString().slice(0, 10);
    if (!body.until || !/^\d{4}-\d{2}-\d{2}$/.test(body.until)) errors.until = ['Write the date as YYYY-MM-DD.'];
    else if (body.until < today) errors.until = ['The end of a waiver cannot be in the past.'];
    if (body.kind === 'insured_mismatch' && body.line) errors.line = ['An insured mismatch has no line.'];
    if (Object.keys(errors).length > 0) return apiError(422, 'validation_failed', 'Some fields need attention.', errors);
    const gap = vendor.gaps.find((g) => g.kind === body.kind && (g.line ?? null) === (body.line ?? null));
    const waiver = { id: `waiver-${Date.now()}`, reason: body.reason!.trim(), until: body.until!, by: account.name };
    if (gap) gap.waived = waiver;
    vendor.meetsRequirements = vendor.gaps.every((g) => g.waived);
    const answer: WaiverResponse = { ...waiver, kind: body.kind ?? 'missing_line', line: body.line ?? null };
    return HttpResponse.json(answer, { status: 201 });
  }),
  http.delete('/api/vendors/{id}/waivers/{waiverId}', ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (RANK[account.orgRole] < RANK.member) return apiError(403, 'forbidden_role', 'Viewers can look but not change anything.');
    const vendor = db.vendors.find((v) => v.id === params.id);
    const gap = vendor?.gaps.find((g) => g.waived?.id === params.waiverId);
    if (!vendor || !gap) return apiError(404, 'not_found', 'Not found.');
    gap.waived = null;
    vendor.meetsRequirements = vendor.gaps.every((g) => g.waived);
    return new HttpResponse(null, { status: 204 });
  }),
  http.put('/api/documents/{id}/coverage', async ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (RANK[account.orgRole] < RANK.member) return apiError(403, 'forbidden_role', 'Viewers can look but not change anything.');
    const doc = db.documents.find((d) => d.id === params.id);
    if (!doc) return apiError(404, 'not_found', 'Not found.');
    if (doc.documentType !== 'coi')
      return apiError(422, 'validation_failed', 'Only a certificate of insurance has coverage.', {
        documentType: ['Only a certificate of insurance has coverage.'],
      });
    type LineBody = {
      line?: string;
      limits?: Record<string, unknown>;
      effectiveDate?: string | null;
      expirationDate?: string | null;
    } & Record<string, unknown>;
    const body = (await request.json()) as {
      certificateDate?: string | null;
      confirmed?: boolean;
      insured?: string | null;
      producer?: string | null;
      certificateHolder?: string | null;
      lines?: LineBody[];
    };
    const errors: Record<string, string[]> = {};
    const lines = (body.lines ?? []).map((raw, index) => {
      const line = raw.line as CoverageLineKey;
      if (!(line in LIMITS)) errors[`lines[${index}].line`] = ['Choose a line of insurance.'];
      const limits = line in LIMITS ? readLimits(line, raw.limits, `lines[${index}].limits`, errors) : {};
      if (raw.effectiveDate && raw.expirationDate && raw.expirationDate <= raw.effectiveDate)
        errors[`lines[${index}].expirationDate`] = ['The expiration date must be after the effective date.'];
      return {
        line,
        insurer: (raw.insurer as string | null) ?? null,
        naic: (raw.naic as string | null) ?? null,
        policyNumber: (raw.policyNumber as string | null) ?? null,
        effectiveDate: raw.effectiveDate ?? null,
        expirationDate: raw.expirationDate ?? null,
        limits,
        additionalInsured: raw.additionalInsured === true,
        waiverOfSubrogation: raw.waiverOfSubrogation === true,
      };
    });
    if (Object.keys(errors).length > 0) return apiError(422, 'validation_failed', 'Some fields need attention.', errors);
    doc.coverage = {
      certificateDate: body.certificateDate ?? null,
      insured: body.insured ?? null,
      producer: body.producer ?? null,
      certificateHolder: body.certificateHolder ?? null,
      lines,
      source: body.confirmed === true ? 'confirmed' : 'manual',
    };
    // A COI without an expiration date takes the earliest line's.
    const earliest = lines
      .map((line) => line.expirationDate)
      .filter((date): date is string => Boolean(date))
      .sort()[0];
    if (!doc.expirationDate && earliest) doc.expirationDate = earliest;
    return HttpResponse.json(doc);
  }),
  http.delete('/api/requirement-sets/{id}', ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    const refused = refuseWrite(account);
    if (refused) return refused;
    if (!db.requirementSets.some((s) => s.id === params.id)) return apiError(404, 'not_found', 'No such requirement set.');
    db.requirementSets = db.requirementSets.filter((s) => s.id !== params.id);
    for (const vendor of db.vendors) {
      if (vendor.requirementSetId === params.id)
        Object.assign(vendor, { requirementSetId: null, gaps: [], meetsRequirements: true });
    }
    return new HttpResponse(null, { status: 204 });
  }),
];
