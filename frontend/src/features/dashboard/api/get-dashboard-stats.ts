import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { scopedKey } from '@/lib/query-keys';
import type { DashboardStats } from '@/types/api';

export const dashboardKeys = {
  all: () => scopedKey('dashboard'),
  stats: () => [...dashboardKeys.all(), 'stats'] as const,
};

export function getDashboardStats(): Promise<DashboardStats> {
  return api.get<DashboardStats>('/api/dashboard/stats');
}

export function getDashboardStatsQueryOptions() {
  return queryOptions({ queryKey: dashboardKeys.stats(), queryFn: getDashboardStats });
}

export function useDashboardStats() {
  return useQuery(getDashboardStatsQueryOptions());
}
