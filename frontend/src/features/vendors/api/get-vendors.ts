import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { TABLE_PAGE_SIZE } from '@/config';
import { api } from '@/lib/api-client';
import type { DocumentStatus, Page, Vendor } from '@/types/api';
import { vendorKeys } from './keys';

/** The server's sort keys; '-' first sorts descending. Ties go by id. */
export type VendorSortKey = 'name' | 'serviceType' | 'status' | 'documentCount' | 'updatedAt';

export type VendorPageParams = {
  limit: number;
  offset: number;
  /** Search text. */
  q?: string;
  status?: DocumentStatus;
  /** true: only vendors with a gap that counts (not waived). */
  gaps?: boolean;
  /** A VendorSortKey, maybe with '-' first; the server's default is `name`. */
  sort?: string;
};

/** The first page in the server's default order: what a list shows when it opens. */
export const FIRST_VENDOR_PAGE: VendorPageParams = { limit: TABLE_PAGE_SIZE, offset: 0 };

/** One page of the vendors matching a search and a status; the total is X-Total-Count. */
export function getVendorPage(params: VendorPageParams, signal?: AbortSignal): Promise<Page<Vendor>> {
  return api.page<Vendor>('/api/vendors', { params, signal });
}

export function getVendorPageQueryOptions(params: VendorPageParams) {
  return queryOptions({
    queryKey: vendorKeys.page(params),
    queryFn: ({ signal }) => getVendorPage(params, signal),
    // The page on screen stays while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useVendorPage(params: VendorPageParams) {
  return useQuery(getVendorPageQueryOptions(params));
}
