import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { WaiverInput, WaiverResponse } from '@/types/api';

export type CreateWaiver = { vendorId: string; input: WaiverInput };
export type DeleteWaiver = { vendorId: string; waiverId: string };

/** Waives a gap through `until` (members and above); `line` is absent for an insured mismatch. */
export function createWaiver({ vendorId, input }: CreateWaiver): Promise<WaiverResponse> {
  return api.post<WaiverResponse>(`/api/vendors/${encodeURIComponent(vendorId)}/waivers`, input);
}

/** Ends a waiver at once: its gap counts again. */
export function deleteWaiver({ vendorId, waiverId }: DeleteWaiver): Promise<void> {
  return api.delete(`/api/vendors/${encodeURIComponent(vendorId)}/waivers/${encodeURIComponent(waiverId)}`);
}

// A waiver changes the vendor's gaps, the lists' gap filter, the dashboard's figures and the log.
const REFRESH = ['vendors', 'dashboard', 'activity'] as const;

export function useCreateWaiver() {
  const client = useQueryClient();
  return useMutation<WaiverResponse, ApiError, CreateWaiver>({
    mutationFn: createWaiver,
    onSuccess: () => invalidateCompliance(client, REFRESH),
  });
}

export function useDeleteWaiver() {
  const client = useQueryClient();
  return useMutation<void, ApiError, DeleteWaiver>({
    mutationFn: deleteWaiver,
    onSuccess: () => invalidateCompliance(client, REFRESH),
  });
}
