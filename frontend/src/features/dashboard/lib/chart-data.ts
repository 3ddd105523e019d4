import { addDays, differenceInCalendarDays, isValid, parseISO, startOfDay } from 'date-fns';
import { formatDate } from '@/lib/format';
import type { Vendor, VendorDocument } from '@/types/api';

export type StatusCounts = { current: number; expiring_soon: number; expired: number; missing: number };

/**
 * Documents by status; `missing` counts the requested slots (requiredDocuments) that hold no
 * document, since a missing document is a slot, not a row.
 */
export function documentStatusCounts(documents: readonly VendorDocument[], vendors: readonly Vendor[]): StatusCounts {
  const counts: StatusCounts = { current: 0, expiring_soon: 0, expired: 0, missing: 0 };
  for (const doc of documents) {
    if (doc.status in counts) counts[doc.status] += 1;
  }
  for (const vendor of vendors) {
    const required = new Set(vendor.requiredDocuments ?? []);
    counts.missing += (vendor.slots ?? []).filter((s) => s.status === 'missing' && required.has(s.slot)).length;
  }
  return counts;
}

export type ExpirationBucket = { label: string; start: Date; end: Date; count: number };

/** Expirations from today through the next 90 days, in `size`-day buckets (six of 15 days). */
export function expirationBuckets(
  documents: readonly VendorDocument[],
  today = new Date(),
  days = 90,
  size = 15,
): ExpirationBucket[] {
  const start = startOfDay(today);
  const buckets: ExpirationBucket[] = [];
  for (let offset = 0; offset < days; offset += size) {
    const from = addDays(start, offset);
    const to = addDays(start, Math.min(offset + size, days) - 1);
    buckets.push({ label: formatDate(from, 'MMM d'), start: from, end: to, count: 0 });
  }
  for (const doc of documents) {
    if (!doc.expirationDate) continue;
    const date = parseISO(doc.expirationDate);
    if (!isValid(date)) continue;
    const diff = differenceInCalendarDays(date, start);
    if (diff < 0 || diff >= days) continue;
    const bucket = buckets[Math.floor(diff / size)];
    if (bucket) bucket.count += 1;
  }
  return buckets;
}
