import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_POST_PAGE_SIZE } from '@/config';
import { api } from '@/lib/api-client';
import type { BlogPost, Page } from '@/types/api';
import { adminBlogKeys } from './keys';

/** One page (0-based) of all posts, drafts and published, newest first. */
export function getAdminBlogPosts(page: number): Promise<Page<BlogPost>> {
  return api.page<BlogPost>('/api/admin/blog-posts', {
    params: { limit: ADMIN_POST_PAGE_SIZE, offset: page * ADMIN_POST_PAGE_SIZE },
  });
}

export function getAdminBlogPostsQueryOptions(page: number) {
  return queryOptions({
    queryKey: adminBlogKeys.list(page),
    queryFn: () => getAdminBlogPosts(page),
    placeholderData: keepPreviousData,
  });
}

export function useAdminBlogPosts(page: number) {
  return useQuery(getAdminBlogPostsQueryOptions(page));
}
