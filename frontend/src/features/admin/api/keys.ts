import { scopedKey } from '@/lib/query-keys';

/** Admin reads; the public blog's keys share the 'blog' prefix, so one invalidation refreshes both. */
export const adminBlogKeys = {
  all: () => [...scopedKey('blog'), 'admin'] as const,
  lists: () => [...adminBlogKeys.all(), 'list'] as const,
  list: (page: number) => [...adminBlogKeys.lists(), { page }] as const,
  detail: (idOrSlug: string) => [...adminBlogKeys.all(), 'detail', idOrSlug] as const,
  stats: () => [...adminBlogKeys.all(), 'stats'] as const,
};

/** Every blog read, admin and public. */
export const BLOG_ROOT_KEY = ['blog'] as const;
