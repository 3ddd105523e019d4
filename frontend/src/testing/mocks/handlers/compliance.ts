import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import type { DashboardStats, Vendor, VendorInput } from '@/types/api';
import { buildDocument, buildVendor } from '../fixtures';
import { accountFromRequest, db } from '../db';
import { apiError, unauthorized } from '../utils';
import { activityList, documentList, reminderList, vendorList } from './lists';

/** The bearer check every tenant endpoint has: the 401 to answer, or null when signed in. */
const signedOut = (request: Request) => (accountFromRequest(request) ? null : unauthorized());

const notFound = () => apiError(404, 'not_found', 'Not found.');
const findVendor = (id: unknown) => db.vendors.find((v) => v.id === id);
const withDocuments = (v: Vendor): Vendor => ({ ...v, documents: db.documents.filter((d) => d.vendorId === v.id) });

const DAY_MS = 86_400_000;
/** Days from the UTC date `from` to the calendar date `to` (both YYYY-MM-DD). */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const isoDay = (from: string, offset: number) =>
  new Date(Date.parse(`${from}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);

/**
 * Current documents expiring in `buckets` spans of `size` days from today (the server's UTC
 * date): span i counts today + size·i through today + size·i + size − 1.
 */
function expirationCounts(today: string, buckets: number, size: number): number[] {
  const counts = Array.from({ length: buckets }, () => 0);
  for (const doc of db.documents) {
    if (!doc.expirationDate) continue;
    const days = daysBetween(today, doc.expirationDate.slice(0, 10));
    if (days >= 0 && days < buckets * size) counts[Math.floor(days / size)] += 1;
  }
  return counts;
}

/** GET /api/dashboard/stats as the server computes it from the organization's vendors and current documents. */
function stats(): DashboardStats {
  const count = (status: string) => db.vendors.filter((v) => v.documentStatus === status).length;
  const documents = (status: string) => db.documents.filter((d) => d.status === status).length;
  // Each vendor's requested slots holding no current document.
  const missing = db.vendors.reduce((sum, v) => {
    const required = new Set(v.requiredDocuments ?? []);
    return sum + (v.slots ?? []).filter((s) => s.status === 'missing' && required.has(s.slot)).length;
  }, 0);
  const today = new Date().toISOString().slice(0, 10);
  return {
    totalVendors: db.vendors.length,
    compliantVendors: count('current'),
    expiringVendors: count('expiring_soon'),
    nonCompliantVendors: count('expired') + count('missing'),
    vendorsWithGaps: db.vendors.filter((v) => !v.meetsRequirements).length,
    vendorsNeedingAttention: db.vendors.filter(
      (v) =>
        v.documentStatus === 'expiring_soon' ||
        v.documentStatus === 'expired' ||
        v.documentStatus === 'missing' ||
        !v.meetsRequirements,
    ).length,
    documentsByStatus: {
      current: documents('current'),
      expiringSoon: documents('expiring_soon'),
      expired: documents('expired'),
      missing,
    },
    expirationsNext90Days: expirationCounts(today, 13, 7).map((n, i) => ({ weekStart: isoDay(today, i * 7), count: n })),
    upcomingExpirations: expirationCounts(today, 6, 15).map((n, i) => ({
      start: isoDay(today, i * 15),
      end: isoDay(today, i * 15 + 14),
      count: n,
    })),
  };
}

export const complianceHandlers = [
  http.get('/api/payment-status', ({ request }) => {
    const refusal = signedOut(request);
    if (refusal) return refusal;
    const { paidSessions: _paid, hasCustomer: _customer, ...billing } = db.billing;
    return HttpResponse.json({ ...db.plan, ...billing, currentVendorCount: db.vendors.length });
  }),
  http.get('/api/dashboard/stats', ({ request }) => signedOut(request) ?? HttpResponse.json(stats())),
  http.get('/api/vendors', ({ request }) => signedOut(request) ?? vendorList(new URL(request.url))),
  http.post('/api/vendors', async ({ request }) => {
    const refusal = signedOut(request);
    if (refusal) return refusal;
    const body = (await request.json()) as VendorInput;
    if (db.vendors.length >= db.plan.vendorLimit)
      return apiError(402, 'plan_limit', 'Free accounts are limited to 2 vendors maximum.');
    if (!body.email?.includes('@'))
      return apiError(422, 'validation_failed', 'Some fields are invalid.', { email: ['Invalid email address'] });
    if (body.requirementSetId && !db.requirementSets.some((set) => set.id === body.requirementSetId))
      return apiError(422, 'validation_failed', 'Some fields are invalid.', {
        requirementSetId: ['Choose one of your requirement sets.'],
      });
    if (db.vendors.some((v) => v.id === body.companyKey))
      return apiError(409, 'company_key_taken', 'This company key is already in use.');
    const vendor = buildVendor({ ...body, id: body.companyKey, companyKey: body.companyKey } as Partial<Vendor>);
    db.vendors.push(vendor);
    return HttpResponse.json(vendor, { status: 201 });
  }),
  http.get('/api/vendors/{id}', ({ params, request }) => {
    const refusal = signedOut(request);
    if (refusal) return refusal;
    const vendor = findVendor(params.id);
    return vendor ? HttpResponse.json(withDocuments(vendor)) : notFound();
  }),
  http.put('/api/vendors/{id}', async ({ params, request }) => {
    const refusal = signedOut(request);
    if (refusal) return refusal;
    const vendor = findVendor(params.id);
    if (!vendor) return notFound();
    const body = (await request.json()) as VendorInput;
    if (body.requirementSetId && !db.requirementSets.some((set) => set.id === body.requirementSetId))
      return apiError(422, 'validation_failed', 'Some fields are invalid.', {
        requirementSetId: ['Choose one of your requirement sets.'],
      });
    Object.assign(vendor, body, { updatedAt: new Date().toISOString() });
    return HttpResponse.json(withDocuments(vendor));
  }),
  http.delete('/api/vendors/{id}', ({ params, request }) => {
    const refusal = signedOut(request);
    if (refusal) return refusal;
    if (!findVendor(params.id)) return notFound();
    db.vendors = db.vendors.filter((v) => v.id !== params.id);
    db.documents = db.documents.filter((d) => d.vendorId !== params.id);
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('/api/vendors/{id}/documents', async ({ params, request }) => {
    const refusal = signedOut(request);
    if (refusal) return refusal;
    const vendor = findVendor(params.id);
    if (!vendor) return notFound();
    const form = await request.formData();
    const file = form.get('file');
    const doc = buildDocument({
      vendorId: vendor.id,
      vendor: vendor.name,
      fileName: file instanceof File ? file.name : 'upload',
      documentType: form.get('documentType') as never,
      coiType: (form.get('coiType') as never) ?? null,
      expirationDate: (form.get('expirationDate') as string | null) ?? null,
      notes: (form.get('notes') as string | null) ?? null,
    });
    db.documents.push(doc);
    return HttpResponse.json(doc, { status: 201 });
  }),
  http.get('/api/documents', ({ request }) => signedOut(request) ?? documentList(new URL(request.url))),
  http.get('/api/documents/{id}', ({ params, request }) => {
    const refusal = signedOut(request);
    if (refusal) return refusal;
    const doc = db.documents.find((d) => d.id === params.id);
    if (!doc) return notFound();
    const history = db.history.filter(
      (h) => h.vendorId === doc.vendorId && h.documentType === doc.documentType && h.coiType === doc.coiType,
    );
    return HttpResponse.json({ ...doc, history });
  }),
  http.get('/api/documents/{id}/view-link', ({ params, request }) => {
    const refusal = signedOut(request);
    if (refusal) return refusal;
    const doc = db.documents.find((d) => d.id === params.id);
    if (!doc) return notFound();
    const name = encodeURIComponent(doc.fileName);
    return HttpResponse.json({
      url: `/api/documents/${doc.id}/file/4102444800/${'ab'.repeat(32)}/${name}`,
      expiresAt: '2100-01-01T00:00:00+00:00',
    });
  }),
  http.delete('/api/documents/{id}', ({ params, request }) => {
    const refusal = signedOut(request);
    if (refusal) return refusal;
    if (!db.documents.some((d) => d.id === params.id)) return notFound();
    db.documents = db.documents.filter((d) => d.id !== params.id);
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('/api/activity-logs', ({ request }) => signedOut(request) ?? activityList(new URL(request.url))),
  http.get('/api/reminders', ({ request }) => signedOut(request) ?? reminderList(new URL(request.url))),
];
