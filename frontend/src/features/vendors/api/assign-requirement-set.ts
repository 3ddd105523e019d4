import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { AssignRequirementSetInput, AssignRequirementSetResult } from '@/types/api';

/**
 * POST /api/vendors/requirement-set (members and above, both plans): the selected vendors get
 * one requirement set, or none (`requirementSetId: null`); all or none, 404 when an id is gone.
 */
export function assignRequirementSet(input: AssignRequirementSetInput): Promise<AssignRequirementSetResult> {
  return api.post<AssignRequirementSetResult>('/api/vendors/requirement-set', input);
}

export function useAssignRequirementSet() {
  const client = useQueryClient();
  return useMutation<AssignRequirementSetResult, ApiError, AssignRequirementSetInput>({
    mutationFn: assignRequirementSet,
    // The vendors' gaps, the lists' gap filter, the dashboard's figures and the sets' vendor counts.
    onSuccess: () => invalidateCompliance(client),
  });
}
