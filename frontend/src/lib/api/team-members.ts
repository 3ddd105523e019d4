import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { scopedKey } from '@/lib/query-keys';
import type { TeamMember } from '@/types/api';

/** The Team page's reads, scoped to the signed-in tenant (the Activity Log reads the people too). */
export const teamKeys = {
  all: () => scopedKey('team'),
  members: () => [...teamKeys.all(), 'members'] as const,
  invitations: () => [...teamKeys.all(), 'invitations'] as const,
};

/** The people of the organization (every role may read them). */
export function getMembers(): Promise<TeamMember[]> {
  return api.get<TeamMember[]>('/api/team/members');
}

export function getMembersQueryOptions() {
  return queryOptions({ queryKey: teamKeys.members(), queryFn: getMembers });
}

export function useMembers() {
  return useQuery(getMembersQueryOptions());
}
