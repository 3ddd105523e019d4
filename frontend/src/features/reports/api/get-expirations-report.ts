import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ExpirationsReport } from '@/types/api';
import { reportKeys } from './keys';

export function getExpirationsReport(): Promise<ExpirationsReport> {
  return api.get<ExpirationsReport>('/api/reports/expirations');
}

export function getExpirationsReportQueryOptions() {
  return queryOptions({ queryKey: reportKeys.expirations(), queryFn: getExpirationsReport });
}

export function useExpirationsReport() {
  return useQuery(getExpirationsReportQueryOptions());
}
