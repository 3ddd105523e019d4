import type { OrgRole, User } from '@/types/api';
import { useUser } from './session';

/**
 * What the signed-in person's role (`orgRole`, docs/product.md "Teams") lets them do, for the
 * screens to hide or disable what the server would refuse (403 forbidden_role).
 */

export type Person = Pick<User, 'orgRole'> | null | undefined;

const RANK: Record<OrgRole, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** The title a disabled write control carries for a viewer. */
export const VIEWER_REASON = 'Viewers can look but not change anything. Ask an admin of your team to make you a member.';

/** The title a disabled billing control carries for a member or viewer. */
export const BILLING_REASON = 'Only admins and the owner of your team can change the plan or billing.';

/** Whether `role` may do everything `least` may. A person without a known role may do nothing more than read. */
export function atLeast(user: Person, least: OrgRole): boolean {
  const role = user?.orgRole;
  return role !== undefined && RANK[role] >= RANK[least];
}

/** Creates, edits and deletes vendors and documents: members and above. */
export function canWrite(user: Person): boolean {
  return atLeast(user, 'member');
}

/** The title a disabled requirement-set control carries for a member or viewer. */
export const REQUIREMENTS_REASON = 'Only admins and the owner of your team can change requirement sets.';

/** Invites, changes roles, removes people; billing and the organization's settings: admins and the owner. */
export function canManageTeam(user: Person): boolean {
  return atLeast(user, 'admin');
}

/** Billing and upgrades: admins and the owner. */
export const canManageBilling = canManageTeam;

export function isOwner(user: Person): boolean {
  return user?.orgRole === 'owner';
}

/** Whether a control that writes is open to someone, and why not when it is not. */
export type Permission = { allowed: boolean; reason: string | undefined };

export function writePermission(user: Person): Permission {
  const allowed = canWrite(user);
  return { allowed, reason: allowed ? undefined : VIEWER_REASON };
}

export function billingPermission(user: Person): Permission {
  const allowed = canManageBilling(user);
  return { allowed, reason: allowed ? undefined : BILLING_REASON };
}

/** Creates, edits and deletes requirement sets: admins and the owner. */
export function requirementsPermission(user: Person): Permission {
  const allowed = atLeast(user, 'admin');
  return { allowed, reason: allowed ? undefined : REQUIREMENTS_REASON };
}

/** Whether the signed-in person may write (members and above); a viewer's reason for the title. */
export function useWritePermission(): Permission {
  return writePermission(useUser());
}

/** Whether the signed-in person may change the plan or billing (admins and the owner). */
export function useBillingPermission(): Permission {
  return billingPermission(useUser());
}

/** Whether the signed-in person may change requirement sets (admins and the owner). */
export function useRequirementsPermission(): Permission {
  return requirementsPermission(useUser());
}
