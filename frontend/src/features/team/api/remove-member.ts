import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { teamKeys } from './keys';

export function removeMember(id: string): Promise<void> {
  return api.delete(`/api/team/members/${encodeURIComponent(id)}`);
}

/** Removes a person: their account is deleted, what they made stays. */
export function useRemoveMember() {
  const client = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: removeMember,
    onSuccess: () => client.invalidateQueries({ queryKey: teamKeys.members() }),
  });
}
