import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { InvitationPreview } from '@/types/api';

/** What an invitation's link offers; 404 invitation_not_found for an unknown, used, revoked or expired link. */
export function getInvitation(token: string): Promise<InvitationPreview> {
  return api.get<InvitationPreview>(`/api/invitations/${encodeURIComponent(token)}`);
}

export function getInvitationQueryOptions(token: string) {
  // Not tenant data: nobody is signed in yet, and the token is the key.
  return queryOptions({ queryKey: ['invitation', token], queryFn: () => getInvitation(token), retry: false });
}

export function useInvitation(token: string | null) {
  return useQuery({ ...getInvitationQueryOptions(token ?? ''), enabled: Boolean(token) });
}
