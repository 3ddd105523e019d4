import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { Vendor, VendorInput } from '@/types/api';
import { vendorKeys } from './keys';

export type UpdateVendorInput = { id: string; data: Omit<VendorInput, 'companyKey'> };

export function updateVendor({ id, data }: UpdateVendorInput): Promise<Vendor> {
  return api.put<Vendor>(`/api/vendors/${encodeURIComponent(id)}`, data);
}

export function useUpdateVendor() {
  const client = useQueryClient();
  return useMutation<Vendor, ApiError, UpdateVendorInput>({
    mutationFn: updateVendor,
    onSuccess: (vendor) => {
      client.setQueryData(vendorKeys.detail(vendor.id), (old: Vendor | undefined) => ({ ...old, ...vendor }));
      return invalidateCompliance(client);
    },
  });
}
