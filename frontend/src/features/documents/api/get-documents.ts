import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { TABLE_PAGE_SIZE } from '@/config';
import { api } from '@/lib/api-client';
import type { DocumentStatus, DocumentType, Page, VendorDocument } from '@/types/api';
import { documentKeys } from './keys';

/** The server's sort keys ('vendor' is the vendor's name); '-' first sorts descending. Ties go by id. */
export type DocumentSortKey = 'uploadedAt' | 'fileName' | 'documentType' | 'expirationDate' | 'status' | 'vendor';

export type DocumentPageParams = {
  limit: number;
  offset: number;
  /** Search text: file name, document type, notes and COI type. */
  q?: string;
  /** A current document is never `missing` (a slot without a document is). */
  status?: Exclude<DocumentStatus, 'missing'>;
  type?: DocumentType;
  /** A DocumentSortKey, maybe with '-' first; the server's default is `-uploadedAt` (newest first). */
  sort?: string;
};

/** The first page in the server's default order: what the list shows when it opens. */
export const FIRST_DOCUMENT_PAGE: DocumentPageParams = { limit: TABLE_PAGE_SIZE, offset: 0 };

/** One page of the current documents matching a search, status and type; the total is X-Total-Count. */
export function getDocumentPage(params: DocumentPageParams, signal?: AbortSignal): Promise<Page<VendorDocument>> {
  return api.page<VendorDocument>('/api/documents', { params, signal });
}

export function getDocumentPageQueryOptions(params: DocumentPageParams) {
  return queryOptions({
    queryKey: documentKeys.page(params),
    queryFn: ({ signal }) => getDocumentPage(params, signal),
    // The page on screen stays while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useDocumentPage(params: DocumentPageParams, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getDocumentPageQueryOptions(params), enabled });
}
