import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';

export function deleteDocument(id: string): Promise<void> {
  return api.delete(`/api/documents/${encodeURIComponent(id)}`);
}

export function useDeleteDocument() {
  const client = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: deleteDocument,
    onSuccess: () => invalidateCompliance(client),
  });
}
