import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PublicBlogPost } from '@/types/api';
import { publicBlogKeys } from './keys';

/** A published post by its slug; an old slug answers the post with its current slug. */
export function getBlogPost(slug: string): Promise<PublicBlogPost> {
  return api.get<PublicBlogPost>(`/api/blog-posts/${encodeURIComponent(slug)}`);
}

export function getBlogPostQueryOptions(slug: string) {
  return queryOptions({ queryKey: publicBlogKeys.detail(slug), queryFn: () => getBlogPost(slug) });
}

export function useBlogPost(slug: string) {
  return useQuery(getBlogPostQueryOptions(slug));
}
