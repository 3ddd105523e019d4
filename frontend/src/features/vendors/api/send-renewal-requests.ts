import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { BulkIdsInput, RenewalRequestResult } from '@/types/api';

/** POST /api/vendors/renewal-requests (Professional): emails each vendor once a day at most. */
export function sendRenewalRequests(ids: string[]): Promise<RenewalRequestResult> {
  const body: BulkIdsInput = { ids };
  return api.post<RenewalRequestResult>('/api/vendors/renewal-requests', body);
}

export function useSendRenewalRequests() {
  const client = useQueryClient();
  return useMutation<RenewalRequestResult, ApiError, string[]>({
    mutationFn: sendRenewalRequests,
    // The requests are written to the activity log.
    onSuccess: () => invalidateCompliance(client, ['activity']),
  });
}
