import { formatDate } from '@/lib/format';
import type { DashboardStats } from '@/types/api';

export type StatusCounts = { current: number; expiring_soon: number; expired: number; missing: number };

/**
 * The donut's figures from the dashboard stats: the current documents by status, and as
 * `missing` the requested slots (requiredDocuments) holding no current document, since a missing
 * document is a slot, not a row. The server counts them all.
 */
export function documentStatusCounts(stats: Pick<DashboardStats, 'documentsByStatus'>): StatusCounts {
  const { current, expiringSoon, expired, missing } = stats.documentsByStatus;
  return { current, expiring_soon: expiringSoon, expired, missing };
}

export type ExpirationBucket = { label: string; start: string; end: string; count: number };

/**
 * The bars of the next 90 days' expirations from the dashboard stats: six spans of 15 days from
 * the server's today (day 0 to day 89), each labelled by its first day.
 */
export function expirationBuckets(stats: Pick<DashboardStats, 'upcomingExpirations'>): ExpirationBucket[] {
  return stats.upcomingExpirations.map(({ start, end, count }) => ({ label: formatDate(start, 'MMM d'), start, end, count }));
}
