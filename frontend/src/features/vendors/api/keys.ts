import { scopedKey } from '@/lib/query-keys';
import type { VendorPageParams } from './get-vendors';

export const vendorKeys = {
  all: () => scopedKey('vendors'),
  lists: () => [...vendorKeys.all(), 'list'] as const,
  /** One page of a search, filter and order. */
  page: (params: VendorPageParams) => [...vendorKeys.lists(), params] as const,
  detail: (id: string) => [...vendorKeys.all(), 'detail', id] as const,
};
