import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { BULK_ID_LIMIT } from '@/config';
import { accountFromRequest, db } from '../db';
import { judgeImport, readImportForm } from '../vendor-import';
import { apiError, unauthorized, xlsxFile } from '../utils';

export const PLAN_REQUIRED_MESSAGE = 'Bulk operations are available on the Professional plan.';
const today = () => new Date().toISOString().slice(0, 10);

/** The checks every bulk call makes, in the server's order: token, plan, ids, ownership. */
async function readIds(request: Request, known: readonly string[], professionalOnly = true) {
  if (!accountFromRequest(request)) return { error: unauthorized() };
  if (professionalOnly && db.plan.plan !== 'professional') {
    return { error: apiError(402, 'plan_required', PLAN_REQUIRED_MESSAGE) };
  }
  const body = (await request.json().catch(() => ({}))) as { ids?: unknown };
  const ids = Array.isArray(body.ids) ? body.ids.filter((id): id is string => typeof id === 'string') : [];
  if (ids.length === 0 || ids.length > BULK_ID_LIMIT) {
    const message = ids.length === 0 ? 'Choose at least one.' : `At most ${BULK_ID_LIMIT} at a time.`;
    return { error: apiError(422, 'validation_failed', message, { ids: [message] }) };
  }
  if (ids.some((id) => !known.includes(id))) {
    return { error: apiError(404, 'not_found', 'One or more of them were not found.') };
  }
  return { ids };
}

const csvCell = (value: string | number | null | undefined) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** An export asked for as an Excel workbook (`?format=xlsx`), or a format there is not; null for CSV. */
function otherFormat(request: Request, name: string): Response | null {
  const format = new URL(request.url).searchParams.get('format') ?? 'csv';
  if (format === 'csv' || format === '') return null;
  if (format !== 'xlsx') return apiError(422, 'validation_failed', 'Use csv or xlsx', { format: ['Use csv or xlsx'] });
  return xlsxFile(`${name}-${today()}.xlsx`);
}

/** Bulk document operations (Professional) and the CSV import and export (both plans). */
export const bulkHandlers = [
  http.post('/api/documents/archive', async ({ request }) => {
    const result = await readIds(
      request,
      db.documents.map((d) => d.id),
    );
    if (result.error) return result.error;
    return new HttpResponse(`PK zip of ${result.ids.join(',')}`, {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="documents-${today()}.zip"`,
      },
    });
  }),
  http.post('/api/documents/bulk-delete', async ({ request }) => {
    const result = await readIds(
      request,
      db.documents.map((d) => d.id),
    );
    if (result.error) return result.error;
    db.documents = db.documents.filter((d) => !result.ids.includes(d.id));
    return HttpResponse.json({ deleted: result.ids.length });
  }),
  http.post('/api/vendors/renewal-requests', async ({ request }) => {
    const result = await readIds(
      request,
      db.vendors.map((v) => v.id),
    );
    if (result.error) return result.error;
    const sent = result.ids.filter((id) => !db.renewalRequests.includes(id));
    const skipped = result.ids
      .filter((id) => db.renewalRequests.includes(id))
      .map((id) => ({ id, reason: 'already_requested_today' as const }));
    db.renewalRequests.push(...sent);
    return HttpResponse.json({ sent, skipped });
  }),
  http.post('/api/vendors/bulk-delete', async ({ request }) => {
    const result = await readIds(
      request,
      db.vendors.map((v) => v.id),
    );
    if (result.error) return result.error;
    db.vendors = db.vendors.filter((v) => !result.ids.includes(v.id));
    db.documents = db.documents.filter((d) => !result.ids.includes(d.vendorId));
    return HttpResponse.json({ deleted: result.ids.length });
  }),
  http.post('/api/vendors/import', async ({ request }) => {
    if (!accountFromRequest(request)) return unauthorized();
    const form = await request.formData().catch(() => null);
    if (!form) return apiError(400, 'invalid_upload', 'The upload is not a multipart form.');
    const { status, body } = judgeImport(request, await readImportForm(form));
    return HttpResponse.json(body as never, { status });
  }),
  http.get('/api/vendors/export', ({ request }) => {
    if (!accountFromRequest(request)) return unauthorized();
    const other = otherFormat(request, 'vendors');
    if (other) return other;
    const lines = [
      'name,email,serviceType,phone,companyKey',
      ...db.vendors.map((v) => [v.name, v.email, v.serviceType, v.phone, v.companyKey].map(csvCell).join(',')),
    ];
    return new HttpResponse(lines.join('\n'), {
      headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="vendors-${today()}.csv"` },
    });
  }),
  http.get('/api/documents/export', ({ request }) => {
    if (!accountFromRequest(request)) return unauthorized();
    const other = otherFormat(request, 'documents');
    if (other) return other;
    const lines = [
      'vendor,fileName,documentType,expirationDate,status',
      ...db.documents.map((d) => [d.vendor, d.fileName, d.documentType, d.expirationDate, d.status].map(csvCell).join(',')),
    ];
    return new HttpResponse(lines.join('\n'), {
      headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="documents-${today()}.csv"` },
    });
  }),
];
