/**
 * IANA time zones (docs/product.md, "Time zones"): the browser's, sent at sign-up, and the list
 * the Account page offers.
 */

/** The browser's time zone ('America/Los_Angeles'); undefined when the browser does not say. */
export function browserTimeZone(): string | undefined {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone || undefined;
  } catch {
    return undefined;
  }
}

/** Every zone the browser knows, sorted, with UTC and `current` (the saved one) always in. */
export function timeZoneNames(current?: string): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: 'timeZone') => string[] }).supportedValuesOf;
  const known = supported ? supported('timeZone') : [];
  const names = new Set<string>(['UTC', ...known]);
  if (current) names.add(current);
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** 'America/Los_Angeles' as people read it: 'America/Los Angeles'. */
export function timeZoneLabel(zone: string): string {
  return zone.replaceAll('_', ' ');
}
