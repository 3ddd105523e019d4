import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { BulkDeleteResult, BulkIdsInput } from '@/types/api';

/** POST /api/vendors/bulk-delete (Professional): the vendors with their documents; all or none. */
export function bulkDeleteVendors(ids: string[]): Promise<BulkDeleteResult> {
  const body: BulkIdsInput = { ids };
  return api.post<BulkDeleteResult>('/api/vendors/bulk-delete', body);
}

export function useBulkDeleteVendors() {
  const client = useQueryClient();
  return useMutation<BulkDeleteResult, ApiError, string[]>({
    mutationFn: bulkDeleteVendors,
    onSuccess: () => invalidateCompliance(client),
  });
}
