import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ERROR_CODES, isApiError, type ApiError } from '@/lib/api-error';
import type { Extraction, ExtractionAccepted, ExtractionStatus } from '@/types/api';
import { documentKeys } from './keys';

/**
 * A reading is read again this often while it is queued or running (here, not in config.ts, to
 * keep it out of the first visit's files).
 */
export const EXTRACTION_POLL_MS = 2000;

/** A reading still under way: its page asks again every 2 s. */
export function isReading(status: ExtractionStatus | undefined): boolean {
  return status === 'queued' || status === 'running';
}

/** The certificate's latest reading by AI; null when it was never read (404). */
export async function getExtraction(id: string): Promise<Extraction | null> {
  try {
    return await api.get<Extraction>(`/api/documents/${encodeURIComponent(id)}/extraction`);
  } catch (error) {
    if (isApiError(error) && error.code === ERROR_CODES.notFound) return null;
    throw error;
  }
}

/**
 * The reading of a certificate, read again every 2 s while it is queued or running
 * (docs/product.md, "Reading certificates with AI").
 */
export function useExtraction(id: string, enabled: boolean) {
  return useQuery({
    queryKey: documentKeys.extraction(id),
    queryFn: () => getExtraction(id),
    enabled,
    refetchInterval: (query) => (isReading(query.state.data?.status) ? EXTRACTION_POLL_MS : false),
  });
}

/** Asks for a reading (POST /api/documents/{id}/extract): 202 with the job's id. */
export function startExtraction(id: string): Promise<ExtractionAccepted> {
  return api.post<ExtractionAccepted>(`/api/documents/${encodeURIComponent(id)}/extract`);
}

export function useStartExtraction(id: string) {
  const client = useQueryClient();
  return useMutation<ExtractionAccepted, ApiError, void>({
    mutationFn: () => startExtraction(id),
    // The reading is queued: read it again, which starts the polling.
    onSuccess: () => client.invalidateQueries({ queryKey: documentKeys.extraction(id) }),
  });
}
