import { queryOptions } from '@tanstack/react-query';
import { getPublicConfig } from './public-config';

export type { PlanConfig, PublicConfig } from './public-config';

/** The server's public configuration, through the query client (the billing page). */
export function getPublicConfigQueryOptions() {
  return queryOptions({ queryKey: ['public-config'], queryFn: getPublicConfig });
}
