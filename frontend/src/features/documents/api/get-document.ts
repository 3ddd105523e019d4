import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { VendorDocument } from '@/types/api';
import { documentKeys } from './keys';

export type DocumentWithHistory = VendorDocument & { history?: VendorDocument[] };

export function getDocument(id: string): Promise<DocumentWithHistory> {
  return api.get<DocumentWithHistory>(`/api/documents/${encodeURIComponent(id)}`);
}

export function getDocumentQueryOptions(id: string) {
  return queryOptions({ queryKey: [...documentKeys.all(), 'detail', id] as const, queryFn: () => getDocument(id) });
}

export function useDocument(id: string) {
  return useQuery(getDocumentQueryOptions(id));
}
