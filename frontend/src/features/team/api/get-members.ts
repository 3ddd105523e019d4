import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { TeamMember } from '@/types/api';
import { teamKeys } from './keys';

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
