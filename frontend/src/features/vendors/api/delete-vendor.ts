import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import { vendorKeys } from './keys';

export function deleteVendor(id: string): Promise<void> {
  return api.delete(`/api/vendors/${encodeURIComponent(id)}`);
}

/** Deletes a vendor with its documents, files and reminders. */
export function useDeleteVendor() {
  const client = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: deleteVendor,
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: vendorKeys.detail(id) });
      return invalidateCompliance(client);
    },
  });
}
