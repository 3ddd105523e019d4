import { scopedKey } from '@/lib/query-keys';

export const documentKeys = {
  all: () => scopedKey('documents'),
  lists: () => [...documentKeys.all(), 'list'] as const,
  list: () => [...documentKeys.lists(), {}] as const,
  file: (id: string) => [...documentKeys.all(), 'file', id] as const,
};
