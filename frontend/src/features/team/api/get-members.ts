export { getMembers, getMembersQueryOptions, useMembers } from '@/lib/api/team-members';
