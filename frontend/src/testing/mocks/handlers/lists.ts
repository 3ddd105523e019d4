import { HttpResponse, type JsonBodyType } from 'msw';
import type { Reminder, Vendor, VendorDocument } from '@/types/api';
import { db } from '../db';
import { apiError } from '../utils';

/**
 * GET /api/vendors, GET /api/documents, GET /api/activity-logs and GET /api/reminders as the
 * server answers them (docs/product.md, "Lists"): `q`, a status (for documents a type, for
 * activity a type only; reminders have neither) narrow the list, `sort` orders it (names ignoring
 * case, ties by id in the same direction, empty values last either way; activity has no `sort`,
 * newest first), `limit` and `offset` cut the page, and X-Total-Count tells how many match. No
 * `limit`: every match.
 */
type Value = string | number | null | undefined;
type Sorts<T> = Record<string, (row: T) => Value>;

const SEVERITY = ['current', 'expiring_soon', 'expired', 'missing'];

const VENDOR_SORTS: Sorts<Vendor> = {
  name: (v) => v.name.toLowerCase(),
  serviceType: (v) => v.serviceType,
  status: (v) => SEVERITY.indexOf(v.documentStatus),
  documentCount: (v) => v.documentCount,
  updatedAt: (v) => v.updatedAt,
};

const DOCUMENT_SORTS: Sorts<VendorDocument> = {
  uploadedAt: (d) => d.uploadedAt,
  fileName: (d) => d.fileName.toLowerCase(),
  documentType: (d) => d.documentType,
  expirationDate: (d) => d.expirationDate,
  status: (d) => SEVERITY.indexOf(d.status),
  vendor: (d) => (d.vendor ?? '').toLowerCase(),
};

const REMINDER_SORTS: Sorts<Reminder> = {
  reminderDate: (r) => r.reminderDate,
  vendor: (r) => (r.document.vendor ?? '').toLowerCase(),
  // The stored code, not its label.
  documentType: (r) => r.document.documentType,
  expirationDate: (r) => r.document.expirationDate,
  status: (r) => SEVERITY.indexOf(r.document.status),
  // Not sent first.
  sent: (r) => Number(r.sent),
};

const contains = (needle: string) => (field: string | null | undefined) => (field ?? '').toLowerCase().includes(needle);

export function vendorList(url: URL) {
  const q = url.searchParams.get('q')?.trim().toLowerCase() ?? '';
  const status = url.searchParams.get('status');
  if (status && !SEVERITY.includes(status)) return invalid('status');
  const gaps = url.searchParams.get('gaps');
  if (gaps && gaps !== 'true' && gaps !== 'false') return invalid('gaps');
  const rows = db.vendors.filter(
    (v) =>
      (!status || v.documentStatus === status) &&
      (!gaps || v.meetsRequirements === (gaps === 'false')) &&
      (!q || [v.name, v.email, v.serviceType, v.id].some(contains(q))),
  );
  return answer(rows, url, VENDOR_SORTS, 'name', (v) => v.id);
}

export function documentList(url: URL) {
  const q = url.searchParams.get('q')?.trim().toLowerCase() ?? '';
  const status = url.searchParams.get('status');
  const type = url.searchParams.get('type');
  if (status && !SEVERITY.slice(0, 3).includes(status)) return invalid('status');
  const rows = db.documents.filter(
    (d) =>
      (!status || d.status === status) &&
      (!type || d.documentType === type) &&
      (!q || [d.fileName, d.documentType, d.notes, d.coiType].some(contains(q))),
  );
  return answer(rows, url, DOCUMENT_SORTS, '-uploadedAt', (d) => d.id);
}

/** Soonest first unless `sort` says otherwise; no search, no filter. */
export function reminderList(url: URL) {
  return answer(db.reminders, url, REMINDER_SORTS, 'reminderDate', (r) => r.id);
}

/** The server's activity types (src/models/activities.rs, TYPES). */
const ACTIVITY_TYPES = [
  'vendor_created',
  'vendor_updated',
  'vendor_deleted',
  'document_uploaded',
  'document_updated',
  'document_deleted',
  'document_expired',
  'plan_changed',
  'gap_waived',
];

/** Newest first (entries made at the same time in the order they are in `db.activity`). */
export function activityList(url: URL) {
  if (url.searchParams.has('sort')) return invalid('sort');
  const q = url.searchParams.get('q')?.trim().toLowerCase() ?? '';
  const type = url.searchParams.get('type');
  if (type && type !== 'all' && !ACTIVITY_TYPES.includes(type)) return invalid('type');
  const actor = url.searchParams.get('actor');
  const rows = db.activity
    .filter((e) => (!type || type === 'all' || e.activityType === type) && (!q || contains(q)(e.description)))
    .filter((e) => !actor || e.actor?.id === actor)
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return cut(rows, url);
}

function answer<T extends JsonBodyType>(rows: T[], url: URL, sorts: Sorts<T>, defaultSort: string, id: (row: T) => string) {
  const sort = url.searchParams.get('sort') ?? defaultSort;
  const descending = sort.startsWith('-');
  const value = sorts[descending ? sort.slice(1) : sort];
  if (!value) return invalid('sort');
  const sorted = [...rows].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    // Empty values last in both directions, as a database's NULLS LAST.
    const empty = Number(x === null || x === undefined) - Number(y === null || y === undefined);
    if (empty !== 0) return empty;
    // Ties by id, in the same direction.
    const order = (x === y ? 0 : (x as string | number) < (y as string | number) ? -1 : 1) || id(a).localeCompare(id(b));
    return descending ? -order : order;
  });
  return cut(sorted, url);
}

/** `limit` and `offset`, and X-Total-Count. */
function cut<T extends JsonBodyType>(sorted: T[], url: URL) {
  const limit = url.searchParams.get('limit');
  const offset = Number(url.searchParams.get('offset') ?? 0);
  if (limit !== null && !(Number(limit) >= 1)) return invalid('limit');
  if (!(offset >= 0)) return invalid('offset');
  const page = limit === null ? sorted.slice(offset) : sorted.slice(offset, offset + Number(limit));
  return HttpResponse.json<T[]>(page, { headers: { 'X-Total-Count': String(sorted.length) } });
}

function invalid(param: string) {
  return apiError(422, 'validation_failed', 'Some fields are invalid.', { [param]: ['is not valid'] });
}
