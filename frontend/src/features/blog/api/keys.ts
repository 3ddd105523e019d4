/** Public reads: the same for everyone, so no tenant in the key. */
export const publicBlogKeys = {
  all: () => ['blog', 'public'] as const,
  list: (page: number) => [...publicBlogKeys.all(), 'list', { page }] as const,
  detail: (slug: string) => [...publicBlogKeys.all(), 'detail', slug] as const,
};
