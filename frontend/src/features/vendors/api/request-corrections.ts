import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { GapRequestResult } from '@/types/api';

/**
 * "Request corrections" (POST /api/vendors/{id}/gap-request, members and above): emails the
 * vendor its gaps that count, with the portal link and its company key. At most once a day per
 * vendor (429 `already_requested`); 409 `nothing_to_correct` when no gap counts.
 */
export function requestCorrections(vendorId: string): Promise<GapRequestResult> {
  return api.post<GapRequestResult>(`/api/vendors/${encodeURIComponent(vendorId)}/gap-request`);
}

export function useRequestCorrections() {
  // Nothing another screen shows changes: the request is not in the activity log.
  return useMutation<GapRequestResult, ApiError, string>({ mutationFn: requestCorrections });
}
