import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';

export function deleteRequirementSet(id: string): Promise<void> {
  return api.delete(`/api/requirement-sets/${encodeURIComponent(id)}`);
}

/** Deletes a set: its vendors are left without requirements. */
export function useDeleteRequirementSet() {
  const client = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: deleteRequirementSet,
    onSuccess: () =>
      Promise.all(['requirements', 'vendors', 'dashboard'].map((domain) => client.invalidateQueries({ queryKey: [domain] }))),
  });
}
