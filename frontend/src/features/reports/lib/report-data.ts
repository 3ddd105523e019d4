import { SLOT_LABELS, STATUS_LABELS } from '@/lib/domain/documents';
import { formatDate } from '@/lib/format';
import type { ComplianceReport, CompliancePoint, NonCompliantStatus, SlotKey } from '@/types/api';

/** One calendar day of the period: its snapshot, or null when the server has none. */
export type TrendDay = { date: string; point: CompliancePoint | null };

/** Every day of the period in order, snapshots and missing days together; nothing is filled in. */
export function trendDays(report: Pick<ComplianceReport, 'points' | 'missingDays'>): TrendDay[] {
  const byDate = new Map<string, CompliancePoint | null>();
  for (const day of report.missingDays) byDate.set(day, null);
  for (const point of report.points) byDate.set(point.date, point);
  return [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, point]) => ({ date, point }));
}

/** A run of consecutive days without a snapshot, as indexes into the days of trendDays(). */
export type Gap = { from: number; to: number; startDate: string; endDate: string; length: number };

export function gaps(days: readonly TrendDay[]): Gap[] {
  const result: Gap[] = [];
  let start = -1;
  days.forEach((day, i) => {
    if (day.point === null && start < 0) start = i;
    const last = i === days.length - 1;
    if (start >= 0 && (day.point !== null || last)) {
      const end = day.point === null ? i : i - 1;
      result.push({ from: start, to: end, startDate: days[start].date, endDate: days[end].date, length: end - start + 1 });
      start = -1;
    }
  });
  return result;
}

/** 'No data for 3 days (Mar 4 – Mar 6, 2025)', 'No data for 1 day (Mar 4, 2025)'. */
export function gapText(gap: Pick<Gap, 'length' | 'startDate' | 'endDate'>): string {
  const days = `${gap.length} ${gap.length === 1 ? 'day' : 'days'}`;
  const range =
    gap.startDate === gap.endDate
      ? formatDate(gap.startDate)
      : `${formatDate(gap.startDate, gap.startDate.slice(0, 4) === gap.endDate.slice(0, 4) ? 'MMM d' : 'MMM d, yyyy')} – ${formatDate(gap.endDate)}`;
  return `No data for ${days} (${range})`;
}

function trimNumber(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}

/** A compliance rate in percent: '83.3%'; 'N/A' when there were no vendors to count. */
export function formatRate(rate: number | null): string {
  return rate === null ? 'N/A' : `${trimNumber(rate)}%`;
}

/** A change in percentage points: '+5 percentage points', '-2.5 percentage points', 'No change'. */
export function formatRateChange(change: number | null): string {
  if (change === null) return 'Not enough data to compare';
  const rounded = Math.round(change * 10) / 10;
  if (rounded === 0) return 'No change';
  const points = Math.abs(rounded) === 1 ? 'percentage point' : 'percentage points';
  return `${rounded > 0 ? '+' : '-'}${trimNumber(Math.abs(rounded))} ${points}`;
}

/** Worst first: expired, then missing documents, then expiring soon. */
export const NON_COMPLIANT_RANK: Record<NonCompliantStatus, number> = { expired: 0, missing: 1, expiring_soon: 2, current: 3 };

const STATUS_WORDS: Record<string, string> = {
  missing: 'missing',
  expired: 'expired',
  expiring_soon: 'expiring soon',
};

function slotName(key: string): string {
  return SLOT_LABELS[key as SlotKey] ?? key.replace(/[_-]+/g, ' ');
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

/**
 * A reason in plain words. The server's own sentences are shown as they are; a coded reason
 * ('missing:w9', 'expired:coi_general_liability', 'no_documents') is put into words.
 */
export function reasonText(reason: string): string {
  if (/\s/.test(reason.trim())) return reason.trim();
  if (reason === 'no_documents') return 'No documents on file';
  const [status, slot] = reason.split(':');
  if (slot && STATUS_WORDS[status]) return `${slotName(slot)} ${STATUS_WORDS[status]}`;
  if (STATUS_LABELS[reason as keyof typeof STATUS_LABELS]) return STATUS_LABELS[reason as keyof typeof STATUS_LABELS];
  return sentence(reason.replace(/[_:-]+/g, ' '));
}
