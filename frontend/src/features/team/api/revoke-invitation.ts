import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { teamKeys } from './keys';

export function revokeInvitation(id: string): Promise<void> {
  return api.delete(`/api/team/invitations/${encodeURIComponent(id)}`);
}

/** Revokes a pending invitation: its link stops working. */
export function useRevokeInvitation() {
  const client = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: revokeInvitation,
    onSuccess: () => client.invalidateQueries({ queryKey: teamKeys.invitations() }),
  });
}
