/**
 * Written with Intl.RelativeTimeFormat, not date-fns' formatDistance: its locale code would join
 * the files every signed-in page loads (the build merges small shared files; docs/decisions.md, 52).
 */
const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** The largest unit a span of seconds is counted in, with the span it starts at. */
const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/**
 * '5 minutes ago', 'yesterday', 'just now' under a minute; `never` when there is no time (or none
 * readable). A time ahead of the clock (the server's and this device's differ) reads as now.
 */
export function timeAgo(at: string | null | undefined, never: string, now = new Date()): string {
  if (!at) return never;
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return never;
  const seconds = Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000));
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return relative.format(-Math.floor(seconds / size), unit);
  }
  return 'just now';
}
