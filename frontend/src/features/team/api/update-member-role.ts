import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { OrgRole, TeamMember } from '@/types/api';
import { teamKeys } from './keys';

export type RoleChange = { id: string; orgRole: Exclude<OrgRole, 'owner'> };

export function updateMemberRole({ id, orgRole }: RoleChange): Promise<TeamMember> {
  return api.put<TeamMember>(`/api/team/members/${encodeURIComponent(id)}`, { orgRole });
}

/** Changes a person's role (admins and the owner; only the owner touches admins). */
export function useUpdateMemberRole() {
  const client = useQueryClient();
  return useMutation<TeamMember, ApiError, RoleChange>({
    mutationFn: updateMemberRole,
    onSuccess: () => client.invalidateQueries({ queryKey: teamKeys.members() }),
  });
}
