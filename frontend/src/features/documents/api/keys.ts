import { scopedKey } from '@/lib/query-keys';
import type { DocumentPageParams } from './get-documents';

export const documentKeys = {
  all: () => scopedKey('documents'),
  lists: () => [...documentKeys.all(), 'list'] as const,
  /** One page of a search, filter and order. */
  page: (params: DocumentPageParams) => [...documentKeys.lists(), params] as const,
  file: (id: string) => [...documentKeys.all(), 'file', id] as const,
  viewLink: (id: string) => [...documentKeys.all(), 'view-link', id] as const,
  /** The latest reading of a certificate by AI. */
  extraction: (id: string) => [...documentKeys.all(), 'extraction', id] as const,
};
