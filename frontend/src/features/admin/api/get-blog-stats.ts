import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { BlogStats } from '@/types/api';
import { adminBlogKeys } from './keys';

export function getBlogStats(): Promise<BlogStats> {
  return api.get<BlogStats>('/api/admin/blog-stats');
}

export function getBlogStatsQueryOptions() {
  return queryOptions({ queryKey: adminBlogKeys.stats(), queryFn: getBlogStats });
}

export function useBlogStats() {
  return useQuery(getBlogStatsQueryOptions());
}
