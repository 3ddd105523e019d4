import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Vendor } from '@/types/api';
import { vendorKeys } from './keys';

/** All vendors of the organization; screens filter and page them in the browser. */
export function getVendors(): Promise<Vendor[]> {
  return api.get<Vendor[]>('/api/vendors');
}

export function getVendorsQueryOptions() {
  return queryOptions({ queryKey: vendorKeys.list(), queryFn: getVendors });
}

export function useVendors() {
  return useQuery(getVendorsQueryOptions());
}
