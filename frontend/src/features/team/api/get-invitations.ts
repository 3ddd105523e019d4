import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Invitation } from '@/types/api';
import { teamKeys } from './keys';

/** The pending invitations, newest first (admins and the owner only). */
export function getInvitations(): Promise<Invitation[]> {
  return api.get<Invitation[]>('/api/team/invitations');
}

export function getInvitationsQueryOptions() {
  return queryOptions({ queryKey: teamKeys.invitations(), queryFn: getInvitations });
}

export function useInvitations({ enabled }: { enabled: boolean }) {
  return useQuery({ ...getInvitationsQueryOptions(), enabled });
}
