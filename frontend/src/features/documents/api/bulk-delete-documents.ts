import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { BulkDeleteResult, BulkIdsInput } from '@/types/api';

/** POST /api/documents/bulk-delete (Professional): all of them or, on any error, none. */
export function bulkDeleteDocuments(ids: string[]): Promise<BulkDeleteResult> {
  const body: BulkIdsInput = { ids };
  return api.post<BulkDeleteResult>('/api/documents/bulk-delete', body);
}

export function useBulkDeleteDocuments() {
  const client = useQueryClient();
  return useMutation<BulkDeleteResult, ApiError, string[]>({
    mutationFn: bulkDeleteDocuments,
    onSuccess: () => invalidateCompliance(client),
  });
}
