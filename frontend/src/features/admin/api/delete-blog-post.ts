import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { BLOG_ROOT_KEY } from './keys';

export function deleteBlogPost(id: number): Promise<void> {
  return api.delete(`/api/admin/blog-posts/${id}`);
}

export function useDeleteBlogPost() {
  const client = useQueryClient();
  return useMutation<void, ApiError, number>({
    mutationFn: deleteBlogPost,
    onSuccess: () => client.invalidateQueries({ queryKey: BLOG_ROOT_KEY }),
  });
}
