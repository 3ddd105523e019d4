import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { scopedKey } from '@/lib/query-keys';
import type { ActivityEntry } from '@/types/api';

export const activityKeys = {
  all: () => scopedKey('activity'),
  list: (limit?: number) => [...activityKeys.all(), 'list', { limit: limit ?? null }] as const,
};

/** Newest first; the dashboard asks for the last 4. */
export function getActivityLogs(limit?: number): Promise<ActivityEntry[]> {
  return api.get<ActivityEntry[]>('/api/activity-logs', { params: { limit } });
}

export function getActivityLogsQueryOptions(limit?: number) {
  return queryOptions({ queryKey: activityKeys.list(limit), queryFn: () => getActivityLogs(limit) });
}

export function useActivityLogs(limit?: number) {
  return useQuery(getActivityLogsQueryOptions(limit));
}
