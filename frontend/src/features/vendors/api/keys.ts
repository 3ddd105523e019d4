import { scopedKey } from '@/lib/query-keys';

export const vendorKeys = {
  all: () => scopedKey('vendors'),
  lists: () => [...vendorKeys.all(), 'list'] as const,
  list: () => [...vendorKeys.lists(), {}] as const,
  detail: (id: string) => [...vendorKeys.all(), 'detail', id] as const,
};
