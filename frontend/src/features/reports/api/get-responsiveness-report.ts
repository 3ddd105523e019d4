import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ResponsivenessRow } from '@/types/api';
import { reportKeys } from './keys';

export function getResponsivenessReport(): Promise<ResponsivenessRow[]> {
  return api.get<ResponsivenessRow[]>('/api/reports/responsiveness');
}

export function getResponsivenessReportQueryOptions() {
  return queryOptions({ queryKey: reportKeys.responsiveness(), queryFn: getResponsivenessReport });
}

export function useResponsivenessReport() {
  return useQuery(getResponsivenessReportQueryOptions());
}
