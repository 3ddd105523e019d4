import { isValid, parseISO } from 'date-fns';

function toDate(value: string | Date): Date {
  return value instanceof Date ? value : parseISO(value);
}

/**
 * The date shapes the screens show, named by their date-fns patterns. Written with Intl (en-US),
 * not date-fns' format, whose locale and token code would weigh on every signed-in page.
 */
export type DatePattern = 'MMM d, yyyy' | 'MMM d' | 'MMM d, yyyy - h:mm a' | 'yyyy-MM-dd';

const dateParts = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

function formatPattern(date: Date, pattern: DatePattern): string {
  if (pattern === 'yyyy-MM-dd') {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }
  // Parts, not Intl's own sentence: newer ICU data puts a narrow no-break space before 'PM'.
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of dateParts.formatToParts(date)) part[type] = value;
  const monthDay = `${part.month} ${part.day}`;
  if (pattern === 'MMM d') return monthDay;
  const monthDayYear = `${monthDay}, ${part.year}`;
  if (pattern === 'MMM d, yyyy') return monthDayYear;
  return `${monthDayYear} - ${part.hour}:${part.minute} ${part.dayPeriod}`;
}

/**
 * Formats a date for display: 'N/A' when missing, 'Invalid date' when unreadable
 * (docs/product.md, "Screens"). Date-only strings (YYYY-MM-DD) are read as local calendar dates.
 */
export function formatDate(value: string | Date | null | undefined, pattern: DatePattern = 'MMM d, yyyy'): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = toDate(value);
  if (!isValid(date)) return 'Invalid date';
  return formatPattern(date, pattern);
}

/** An instant like 'Jan 5, 2025 - 3:07 PM' (activity rows). */
export function formatDateTime(value: string | Date | null | undefined): string {
  return formatDate(value, 'MMM d, yyyy - h:mm a');
}

/** Words of a service type written in capitals, as the server labels them (the import's
 * "HVAC"). */
const ACRONYMS: Record<string, string> = { hvac: 'HVAC' };

/** 'general-contractor' -> 'General Contractor', 'hvac' -> 'HVAC'. */
export function formatServiceType(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => ACRONYMS[word.toLowerCase()] ?? word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || Number.isNaN(bytes)) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** '$0.43'; a cost under a cent but above nothing reads '< $0.01' rather than '$0.00'. */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return 'N/A';
  if (value > 0 && value < 0.01) return '< $0.01';
  return usd.format(value);
}
