import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { CoverageInput, VendorDocument } from '@/types/api';

export type SaveCoverage = { id: string; input: CoverageInput };

/** What a COI shows, entered by hand: amounts and dates as typed (PUT /api/documents/{id}/coverage). */
export function saveCoverage({ id, input }: SaveCoverage): Promise<VendorDocument> {
  return api.put<VendorDocument>(`/api/documents/${encodeURIComponent(id)}/coverage`, input);
}

export function useSaveCoverage() {
  const client = useQueryClient();
  return useMutation<VendorDocument, ApiError, SaveCoverage>({
    mutationFn: saveCoverage,
    // Coverage changes the vendor's gaps, and may give the document its expiration date.
    onSuccess: () => invalidateCompliance(client),
  });
}
