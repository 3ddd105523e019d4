import type { OrgRole } from '@/types/api';
import { canManageTeam, isOwner, type Person } from './permissions';

/** The Team page's and the invitation page's words and rules for roles (docs/product.md, Teams). */

export const ROLE_LABELS: Record<OrgRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};

/**
 * Whether `user` may change the role of, or remove, `member`: never themselves, never the owner;
 * an admin only when `user` is the owner; members and viewers when `user` is an admin or the owner.
 */
export function canManageMember(
  user: (Person & { id?: string }) | null | undefined,
  member: { id: string; orgRole: OrgRole },
): boolean {
  if (!user || !canManageTeam(user) || user.id === member.id || member.orgRole === 'owner') return false;
  return member.orgRole === 'admin' ? isOwner(user) : true;
}

/** The roles `user` may give in an invitation or a role change: admin only by the owner. */
export function assignableRoles(user: Person): OrgRole[] {
  return isOwner(user) ? ['admin', 'member', 'viewer'] : ['member', 'viewer'];
}
