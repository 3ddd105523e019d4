import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { BlogPost } from '@/types/api';
import { adminBlogKeys } from './keys';

/** A draft or published post by id or slug (the editor opens it by slug). */
export function getAdminBlogPost(idOrSlug: string): Promise<BlogPost> {
  return api.get<BlogPost>(`/api/admin/blog-posts/${encodeURIComponent(idOrSlug)}`);
}

export function getAdminBlogPostQueryOptions(idOrSlug: string) {
  return queryOptions({ queryKey: adminBlogKeys.detail(idOrSlug), queryFn: () => getAdminBlogPost(idOrSlug) });
}

export function useAdminBlogPost(idOrSlug: string) {
  return useQuery(getAdminBlogPostQueryOptions(idOrSlug));
}
