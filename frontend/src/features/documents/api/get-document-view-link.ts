import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ViewLink } from '@/types/api';
import { documentKeys } from './keys';

/**
 * A short-lived signed link to the document's view, ending with the file's name: a frame loads a
 * PDF from it directly, so the browser's PDF viewer shows the name (a `blob:` URL shows an id).
 */
export function getDocumentViewLink(id: string): Promise<ViewLink> {
  return api.get<ViewLink>(`/api/documents/${encodeURIComponent(id)}/view-link`);
}

export function getDocumentViewLinkQueryOptions(id: string) {
  // The link works for ten minutes: never reuse one from the cache.
  return queryOptions({
    queryKey: documentKeys.viewLink(id),
    queryFn: () => getDocumentViewLink(id),
    gcTime: 0,
    staleTime: 0,
  });
}

export function useDocumentViewLink(id: string, enabled = true) {
  return useQuery({ ...getDocumentViewLinkQueryOptions(id), enabled });
}
