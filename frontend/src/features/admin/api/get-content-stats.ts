import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ContentStats } from '@/types/api';
import { contentKeys } from './keys';

/** Whether AI is configured, and this month's generations and their cost. */
export function getContentStats(): Promise<ContentStats> {
  return api.get<ContentStats>('/api/admin/content-stats');
}

export function getContentStatsQueryOptions() {
  return queryOptions({ queryKey: contentKeys.stats(), queryFn: getContentStats });
}

export function useContentStats() {
  return useQuery(getContentStatsQueryOptions());
}
