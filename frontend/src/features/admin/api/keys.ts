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

/** The content engine's reads: keywords, AI generations and the weekly plan. */
export const contentKeys = {
  all: () => scopedKey('content'),
  stats: () => [...contentKeys.all(), 'stats'] as const,
  keywords: () => [...contentKeys.all(), 'keywords'] as const,
  keywordCount: () => [...contentKeys.keywords(), 'count'] as const,
  ingest: (id: number) => [...contentKeys.all(), 'ingest', id] as const,
  suggestions: (count: number) => [...contentKeys.keywords(), 'suggestions', { count }] as const,
  jobs: () => [...contentKeys.all(), 'jobs'] as const,
  job: (id: number) => [...contentKeys.all(), 'job', id] as const,
  weeklyPlan: () => [...contentKeys.all(), 'weekly-plan'] as const,
};
