import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { BlogPost } from '@/types/api';
import { BLOG_ROOT_KEY } from './keys';

/** Publish Post: a draft becomes published (an update with status published). */
export function publishBlogPost(id: number): Promise<BlogPost> {
  return api.put<BlogPost>(`/api/admin/blog-posts/${id}`, { status: 'published' });
}

export function usePublishBlogPost() {
  const client = useQueryClient();
  return useMutation<BlogPost, ApiError, number>({
    mutationFn: publishBlogPost,
    onSuccess: () => client.invalidateQueries({ queryKey: BLOG_ROOT_KEY }),
  });
}
