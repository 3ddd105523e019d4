import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type FileResponse } from '@/lib/api-client';
import { documentKeys } from './keys';

/** The document's bytes for the in-page viewer (inline, sandboxed by the server). */
export function getDocumentFile(id: string): Promise<FileResponse> {
  return api.file(`/api/documents/${encodeURIComponent(id)}/view`);
}

export function getDocumentFileQueryOptions(id: string) {
  return queryOptions({ queryKey: documentKeys.file(id), queryFn: () => getDocumentFile(id), gcTime: 0 });
}

export function useDocumentFile(id: string) {
  return useQuery(getDocumentFileQueryOptions(id));
}
