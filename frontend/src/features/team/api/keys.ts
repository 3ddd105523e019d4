export { teamKeys } from '@/lib/api/team-members';
