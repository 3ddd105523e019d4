import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import type {
  CoiType,
  CoverageInput,
  CoverageLine,
  DocumentType,
  ErrorEnvelope,
  Extraction,
  PortalVendor,
  RequestedDocument,
  SlotKey,
} from '@/types/api';
import { db, type MockPortalReading } from '../db';
import { apiError } from '../utils';

/** What each slot asks the vendor for, as the server labels it on the portal. */
const REQUESTS: Record<SlotKey, { documentType: DocumentType; coiType: CoiType | null; label: string }> = {
  w9: { documentType: 'w9', coiType: null, label: 'W-9 Form' },
  coi_general_liability: {
    documentType: 'coi',
    coiType: 'general_liability',
    label: 'Certificate of Insurance (General Liability)',
  },
  coi_workers_comp: { documentType: 'coi', coiType: 'workers_comp', label: 'Certificate of Insurance (Workers Compensation)' },
  coi_automobile: { documentType: 'coi', coiType: 'automobile', label: 'Certificate of Insurance (Automobile)' },
  sales_tax: { documentType: 'sales_tax', coiType: null, label: 'Sales Tax Certificate' },
  vendor_agreement: { documentType: 'vendor_agreement', coiType: null, label: 'Vendor Agreement' },
  other: { documentType: 'other', coiType: null, label: 'Other Documents' },
};

/** The client organization's name the portal shows beside the vendor's. */
export const PORTAL_CLIENT_NAME = 'Acme Property Group';

/** The portal's refusals: the error envelope with `valid: false` beside it (API.md). */
const refusal = (status: number, error: string, message: string) =>
  HttpResponse.json<ErrorEnvelope & { valid: false }>({ error, message, valid: false }, { status });

const keyUnknown = () =>
  refusal(404, 'company_key_not_found', 'No vendor was found for this company key. Check the key and try again.');

/** A certificate AI read: a general liability line, as the portal's GET answers it when done. */
export function buildPortalReading(overrides: Partial<Extraction> = {}): Extraction {
  return {
    jobId: 'job-1',
    status: 'done',
    notes: [],
    checks: [],
    createdAt: '2026-11-27T10:00:00Z',
    finishedAt: '2026-11-27T10:00:20Z',
    suggestion: {
      insured: 'Bright Electric',
      producer: 'Keystone Insurance Agency',
      certificateHolder: PORTAL_CLIENT_NAME,
      certificateDate: '2026-11-01',
      lines: [
        {
          line: 'general_liability',
          insurer: 'Travelers',
          naic: '25658',
          policyNumber: 'GL-1234567',
          effectiveDate: '2026-01-01',
          expirationDate: '2027-01-01',
          limits: { eachOccurrence: 1000000, generalAggregate: 2000000 },
          additionalInsured: true,
          waiverOfSubrogation: false,
        },
      ],
    },
    ...overrides,
  };
}

/** Adds a reading the portal shows for `token`; `steps` are the statuses the GETs answer first. */
export function addPortalReading(
  token: string,
  reading: Extraction = buildPortalReading(),
  steps: MockPortalReading['steps'] = [],
): MockPortalReading {
  const entry: MockPortalReading = { reading, steps: [...steps], corrections: [] };
  db.portalReadings.set(token, entry);
  return entry;
}

/** An amount as a person types it: 1000000, '$1,000,000', '$1M', '500K'; null when it does not read. */
function readAmount(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
  const match = /^\$?\s*([\d,]+(?:\.\d+)?)\s*([kKmM])?$/.exec(value.trim());
  if (!match) return null;
  const number = Number(match[1]!.replace(/,/g, ''));
  const unit = match[2]?.toLowerCase();
  return Math.round(number * (unit === 'm' ? 1_000_000 : unit === 'k' ? 1_000 : 1));
}

/** The coverage form's checks the mock makes: amounts that read, dates in order. */
function readCoverage(input: CoverageInput): { errors: Record<string, string[]> } | { lines: CoverageLine[] } {
  const errors: Record<string, string[]> = {};
  const lines = (input.lines ?? []).map((line, index) => {
    const limits: Record<string, number> = {};
    for (const [key, typed] of Object.entries(line.limits ?? {})) {
      const amount = readAmount(typed);
      if (amount === null) errors[`lines[${index}].limits.${key}`] = [`"${typed}" is not an amount`];
      else limits[key] = amount;
    }
    if (line.effectiveDate && line.expirationDate && line.expirationDate <= line.effectiveDate) {
      errors[`lines[${index}].expirationDate`] = ['The expiration date must be after the effective date'];
    }
    return {
      line: line.line,
      insurer: line.insurer ?? null,
      naic: line.naic ?? null,
      policyNumber: line.policyNumber ?? null,
      effectiveDate: line.effectiveDate ?? null,
      expirationDate: line.expirationDate ?? null,
      limits,
      additionalInsured: line.additionalInsured ?? false,
      waiverOfSubrogation: line.waiverOfSubrogation ?? false,
    };
  });
  return Object.keys(errors).length > 0 ? { errors } : { lines };
}

const readingUnknown = () => apiError(404, 'not_found', 'This reading is no longer available.');

/**
 * GET /api/validate-company-key and the portal's reading: uploads go through XHR, faked in the
 * tests (see fake-xhr).
 */
export const portalHandlers = [
  http.get('/api/validate-company-key', ({ request }) => {
    const key = new URL(request.url).searchParams.get('key')?.trim() ?? '';
    if (!key) {
      return refusal(400, 'company_key_required', 'Company key is required');
    }
    const vendor = db.vendors.find((v) => v.companyKey === key);
    if (!vendor) return keyUnknown();
    const requiredDocuments: RequestedDocument[] = vendor.requiredDocuments.map((slot) => {
      const status = vendor.slots.find((s) => s.slot === slot)?.status ?? 'missing';
      return { slot, ...REQUESTS[slot], uploaded: status !== 'missing' && status !== 'expired' };
    });
    // The gaps that count, in words: all the portal shows of the client's review.
    const corrections = vendor.gaps.filter((g) => !g.waived).map((g) => g.message);
    const body: PortalVendor = {
      valid: true,
      companyName: vendor.name,
      clientName: PORTAL_CLIENT_NAME,
      requiredDocuments,
      corrections,
    };
    return HttpResponse.json(body);
  }),
  http.get('/api/portal/reading', ({ request }) => {
    const entry = db.portalReadings.get(new URL(request.url).searchParams.get('token') ?? '');
    if (!entry) return readingUnknown();
    const step = entry.steps.shift();
    if (step) {
      return HttpResponse.json({ ...entry.reading, status: step, suggestion: null, finishedAt: null });
    }
    return HttpResponse.json(entry.reading);
  }),
  http.put('/api/portal/reading', async ({ request }) => {
    const entry = db.portalReadings.get(new URL(request.url).searchParams.get('token') ?? '');
    if (!entry) return readingUnknown();
    if (entry.steps.length > 0 || entry.reading.status === 'queued' || entry.reading.status === 'running') {
      return apiError(409, 'reading_in_progress', 'Your certificate is still being read. Try again in a moment.');
    }
    const input = (await request.json()) as CoverageInput;
    entry.corrections.push(input);
    const read = readCoverage(input);
    if ('errors' in read) return apiError(422, 'validation_failed', 'Some fields need fixing.', read.errors);
    entry.reading = {
      ...entry.reading,
      confidence: null,
      notes: [...entry.reading.notes, 'Corrected by the vendor through the portal.'],
      suggestion: {
        insured: input.insured ?? null,
        producer: input.producer ?? null,
        certificateHolder: input.certificateHolder ?? null,
        certificateDate: input.certificateDate ?? null,
        lines: read.lines,
      },
    };
    return HttpResponse.json(entry.reading);
  }),
];

export const portalErrors = {
  rateLimited: () => {
    const response = apiError(429, 'rate_limited', 'Too many attempts. Please wait a moment and try again.');
    response.headers.set('Retry-After', '30');
    return response;
  },
};
