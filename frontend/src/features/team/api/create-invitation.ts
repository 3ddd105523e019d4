import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { Invitation, OrgRole } from '@/types/api';
import { teamKeys } from './keys';

export type InvitationInput = { email: string; orgRole: Exclude<OrgRole, 'owner'> };

/** Invites someone; inviting the same email again replaces the earlier link (how Resend works). */
export function createInvitation(input: InvitationInput): Promise<Invitation> {
  return api.post<Invitation>('/api/team/invitations', { email: input.email.trim(), orgRole: input.orgRole });
}

export function useCreateInvitation() {
  const client = useQueryClient();
  return useMutation<Invitation, ApiError, InvitationInput>({
    mutationFn: createInvitation,
    onSuccess: () => client.invalidateQueries({ queryKey: teamKeys.invitations() }),
  });
}
