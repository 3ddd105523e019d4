import { scopedKey } from '@/lib/query-keys';
import type { ReportDays } from '@/types/api';
import type { NonCompliantFilters } from './get-non-compliant-report';

export const reportKeys = {
  all: () => scopedKey('reports'),
  compliance: (days: ReportDays) => [...reportKeys.all(), 'compliance', days] as const,
  expirations: () => [...reportKeys.all(), 'expirations'] as const,
  nonCompliant: (filters: NonCompliantFilters) => [...reportKeys.all(), 'non-compliant', filters] as const,
  responsiveness: () => [...reportKeys.all(), 'responsiveness'] as const,
};
