import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { BLOG_PAGE_SIZE } from '@/config';
import { api } from '@/lib/api-client';
import type { Page, PublicBlogPostSummary } from '@/types/api';
import { publicBlogKeys } from './keys';

/** One page (0-based) of published posts, newest first. */
export function getBlogPosts(page: number): Promise<Page<PublicBlogPostSummary>> {
  return api.page<PublicBlogPostSummary>('/api/blog-posts', {
    params: { limit: BLOG_PAGE_SIZE, offset: page * BLOG_PAGE_SIZE },
  });
}

export function getBlogPostsQueryOptions(page: number) {
  return queryOptions({
    queryKey: publicBlogKeys.list(page),
    queryFn: () => getBlogPosts(page),
    placeholderData: keepPreviousData,
  });
}

export function useBlogPosts(page: number) {
  return useQuery(getBlogPostsQueryOptions(page));
}
