import type { QueryClient } from '@tanstack/react-query';
import { sessionScope } from './session';

/** Every tenant-data domain; a key is [domain, tenant scope, ...]. */
export type Domain =
  | 'vendors'
  | 'documents'
  | 'dashboard'
  | 'activity'
  | 'reminders'
  | 'account'
  | 'reports'
  | 'blog'
  | 'content'
  | 'team'
  | 'requirements'
  | 'integrations';

export function scopedKey<D extends Domain>(domain: D) {
  return [domain, sessionScope()] as const;
}

/** Vendors and documents change what several screens show: refresh all of them. */
export function invalidateCompliance(
  client: QueryClient,
  domains: readonly Domain[] = [
    'vendors',
    'documents',
    'dashboard',
    'activity',
    'reminders',
    'account',
    'reports',
    'requirements',
  ],
) {
  return Promise.all(domains.map((domain) => client.invalidateQueries({ queryKey: [domain] })));
}
