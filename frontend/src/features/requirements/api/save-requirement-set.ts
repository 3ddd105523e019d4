import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { RequirementSet, RequirementSetInput } from '@/types/api';

export type SaveRequirementSet = { id?: string; input: RequirementSetInput };

/** Creates a set (no id) or replaces one's name and lines; amounts go as typed, the server reads them. */
export function saveRequirementSet({ id, input }: SaveRequirementSet): Promise<RequirementSet> {
  return id
    ? api.put<RequirementSet>(`/api/requirement-sets/${encodeURIComponent(id)}`, input)
    : api.post<RequirementSet>('/api/requirement-sets', input);
}

export function useSaveRequirementSet() {
  const client = useQueryClient();
  return useMutation<RequirementSet, ApiError, SaveRequirementSet>({
    mutationFn: saveRequirementSet,
    // A set's change changes its vendors' gaps and the dashboard's figures too.
    onSuccess: () =>
      Promise.all(['requirements', 'vendors', 'dashboard'].map((domain) => client.invalidateQueries({ queryKey: [domain] }))),
  });
}
