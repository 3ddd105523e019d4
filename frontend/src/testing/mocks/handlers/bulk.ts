import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { BULK_ID_LIMIT } from '@/config';
import type { VendorImportInput, VendorImportResult, VendorImportRow } from '@/types/api';
import { accountFromRequest, db } from '../db';
import { buildVendor } from '../fixtures';
import { apiError, unauthorized } from '../utils';

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

/** Plain comma split with quotes: enough for the tests' files. */
function parseCsv(text: string): string[][] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => (line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? []).map((cell) => cell.replace(/,$/, '').replace(/^"|"$/g, '')));
}

function judgeImport(csv: string): { rows: VendorImportRow[]; error?: Response } {
  const lines = parseCsv(csv);
  const header = lines[0]?.map((h) => h.trim()) ?? [];
  if (!header.includes('name') || !header.includes('email')) {
    return {
      rows: [],
      error: apiError(422, 'validation_failed', 'The file is not a vendor CSV.', {
        csv: ['The first line must name the columns, including name and email.'],
      }),
    };
  }
  const seen = new Set(db.vendors.map((v) => v.email.toLowerCase()));
  let room = db.plan.vendorLimit - db.vendors.length;
  const rows = lines.slice(1).map<VendorImportRow>((cells, index) => {
    const get = (column: string) => (cells[header.indexOf(column)] ?? '').trim();
    const row: VendorImportRow = { line: index + 2, status: 'create', name: get('name'), email: get('email'), errors: [] };
    if (!row.name) row.errors.push('Name is required');
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(row.email)) row.errors.push('Invalid email address');
    if (row.errors.length) return { ...row, status: 'error' };
    if (seen.has(row.email.toLowerCase())) {
      return { ...row, status: 'duplicate', errors: ['A vendor with this email already exists'] };
    }
    seen.add(row.email.toLowerCase());
    if (room <= 0) {
      return { ...row, status: 'error', errors: [`Free accounts are limited to ${db.plan.vendorLimit} vendors maximum.`] };
    }
    room -= 1;
    return row;
  });
  return { rows };
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
    const body = (await request.json()) as VendorImportInput;
    const { rows, error } = judgeImport(body.csv ?? '');
    if (error) return error;
    const creating = rows.filter((r) => r.status === 'create');
    if (body.commit) {
      creating.forEach((r) => db.vendors.push(buildVendor({ name: r.name, email: r.email })));
    }
    const answer: VendorImportResult = { rows, wouldCreate: creating.length, created: body.commit ? creating.length : 0 };
    return HttpResponse.json(answer);
  }),
  http.get('/api/vendors/export', ({ request }) => {
    if (!accountFromRequest(request)) return unauthorized();
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
    const lines = [
      'vendor,fileName,documentType,expirationDate,status',
      ...db.documents.map((d) => [d.vendor, d.fileName, d.documentType, d.expirationDate, d.status].map(csvCell).join(',')),
    ];
    return new HttpResponse(lines.join('\n'), {
      headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="documents-${today()}.csv"` },
    });
  }),
];
