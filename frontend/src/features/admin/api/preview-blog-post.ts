import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { BlogPreview } from '@/types/api';

/** The server's sanitised rendering of the Markdown: the same HTML the public page shows. */
export function previewBlogPost(content: string): Promise<BlogPreview> {
  return api.post<BlogPreview>('/api/admin/blog-posts/preview', { content });
}

export function usePreviewBlogPost() {
  return useMutation<BlogPreview, ApiError, string>({ mutationFn: previewBlogPost });
}
