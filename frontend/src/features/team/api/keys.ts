import { scopedKey } from '@/lib/query-keys';

/** The Team page's reads, scoped to the signed-in tenant. */
export const teamKeys = {
  all: () => scopedKey('team'),
  members: () => [...teamKeys.all(), 'members'] as const,
  invitations: () => [...teamKeys.all(), 'invitations'] as const,
};
