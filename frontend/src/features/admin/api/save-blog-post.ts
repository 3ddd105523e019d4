import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { BlogPost, BlogPostInput } from '@/types/api';
import { adminBlogKeys, BLOG_ROOT_KEY } from './keys';

export function createBlogPost(input: BlogPostInput): Promise<BlogPost> {
  return api.post<BlogPost>('/api/admin/blog-posts', input);
}

export function updateBlogPost(id: number, input: BlogPostInput): Promise<BlogPost> {
  return api.put<BlogPost>(`/api/admin/blog-posts/${id}`, input);
}

export type SaveBlogPostVariables = { id?: number; input: BlogPostInput };

/** The editor's Save: creates without an id, replaces the editable fields with one. */
export function useSaveBlogPost() {
  const client = useQueryClient();
  return useMutation<BlogPost, ApiError, SaveBlogPostVariables>({
    mutationFn: ({ id, input }) => (id ? updateBlogPost(id, input) : createBlogPost(input)),
    // Not awaited: the editor leaves at once, and a renamed slug would make its own read fail meanwhile.
    onSuccess: (saved) => {
      client.setQueryData(adminBlogKeys.detail(saved.slug), saved);
      void client.invalidateQueries({ queryKey: BLOG_ROOT_KEY });
    },
  });
}
