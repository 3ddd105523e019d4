import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { VendorImportInput, VendorImportResult } from '@/types/api';

/**
 * POST /api/vendors/import: with `commit: false` a dry run that says what each line would become;
 * with `commit: true` the rows marked `create` are created (within the plan's vendor limit).
 */
export function importVendors(input: VendorImportInput): Promise<VendorImportResult> {
  return api.post<VendorImportResult>('/api/vendors/import', input);
}

export function useImportVendors() {
  const client = useQueryClient();
  return useMutation<VendorImportResult, ApiError, VendorImportInput>({
    mutationFn: importVendors,
    onSuccess: (result, input) => (input.commit && result.created > 0 ? invalidateCompliance(client) : undefined),
  });
}
