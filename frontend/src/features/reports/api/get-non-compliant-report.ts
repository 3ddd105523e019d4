import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { NonCompliantStatus, NonCompliantVendor } from '@/types/api';
import { reportKeys } from './keys';

/** The server filters; an empty value means all. */
export type NonCompliantFilters = { status: NonCompliantStatus | ''; serviceType: string };

export const NO_FILTERS: NonCompliantFilters = { status: '', serviceType: '' };

export function getNonCompliantReport(filters: NonCompliantFilters): Promise<NonCompliantVendor[]> {
  return api.get<NonCompliantVendor[]>('/api/reports/non-compliant', { params: filters });
}

export function getNonCompliantReportQueryOptions(filters: NonCompliantFilters = NO_FILTERS) {
  return queryOptions({ queryKey: reportKeys.nonCompliant(filters), queryFn: () => getNonCompliantReport(filters) });
}

export function useNonCompliantReport(filters: NonCompliantFilters) {
  return useQuery({ ...getNonCompliantReportQueryOptions(filters), placeholderData: keepPreviousData });
}
