import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import type { CoiType, DocumentType, ErrorEnvelope, PortalVendor, RequestedDocument, SlotKey } from '@/types/api';
import { db } from '../db';
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

/** Only GET /api/validate-company-key: uploads go through XHR, faked in the tests (see fake-xhr). */
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
];

export const portalErrors = {
  rateLimited: () => {
    const response = apiError(429, 'rate_limited', 'Too many attempts. Please wait a moment and try again.');
    response.headers.set('Retry-After', '30');
    return response;
  },
};
