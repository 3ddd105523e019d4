import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { Vendor, VendorInput } from '@/types/api';

export function createVendor(input: VendorInput): Promise<Vendor> {
  return api.post<Vendor>('/api/vendors', input);
}

export function useCreateVendor() {
  const client = useQueryClient();
  return useMutation<Vendor, ApiError, VendorInput>({
    mutationFn: createVendor,
    onSuccess: () => invalidateCompliance(client),
  });
}
