import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Vendor } from '@/types/api';
import { vendorKeys } from './keys';

/** One vendor with its current documents. 404 when missing or another tenant's. */
export function getVendor(id: string): Promise<Vendor> {
  return api.get<Vendor>(`/api/vendors/${encodeURIComponent(id)}`);
}

export function getVendorQueryOptions(id: string) {
  return queryOptions({ queryKey: vendorKeys.detail(id), queryFn: () => getVendor(id) });
}

export function useVendor(id: string) {
  return useQuery(getVendorQueryOptions(id));
}
