import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { CoverageInput, Extraction, ExtractionStatus } from '@/types/api';

/** How often a reading still queued or running is asked for again. */
export const READING_POLL_MS = 2000;

/** The portal has no session: the key is the reading's token alone. */
export const portalReadingKey = (token: string) => ['portal-reading', token] as const;

export const isReading = (status: ExtractionStatus | undefined) => status === 'queued' || status === 'running';

/** What AI read of the certificate the vendor just uploaded; the token is the credential. */
export function getPortalReading(token: string): Promise<Extraction> {
  return api.get<Extraction>('/api/portal/reading', { params: { token } });
}

/** The vendor's corrections, checked as the coverage form checks them: 422 by field, 409 while still read. */
export function correctPortalReading(token: string, input: CoverageInput): Promise<Extraction> {
  return api.put<Extraction>('/api/portal/reading', input, { params: { token } });
}

/** The reading, asked for again every 2 s while it is queued or running. */
export function usePortalReading(token: string) {
  return useQuery<Extraction, ApiError>({
    queryKey: portalReadingKey(token),
    queryFn: () => getPortalReading(token),
    refetchInterval: (query) => (isReading(query.state.data?.status) ? READING_POLL_MS : false),
  });
}

export function useCorrectPortalReading(token: string) {
  const client = useQueryClient();
  return useMutation<Extraction, ApiError, CoverageInput>({
    mutationFn: (input) => correctPortalReading(token, input),
    onSuccess: (reading) => client.setQueryData(portalReadingKey(token), reading),
  });
}
