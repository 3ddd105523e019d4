import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { VendorDocument } from '@/types/api';
import { documentKeys } from './keys';

/** Current versions of every document of the organization. */
export function getDocuments(): Promise<VendorDocument[]> {
  return api.get<VendorDocument[]>('/api/documents');
}

export function getDocumentsQueryOptions() {
  return queryOptions({ queryKey: documentKeys.list(), queryFn: getDocuments });
}

export function useDocuments() {
  return useQuery(getDocumentsQueryOptions());
}
