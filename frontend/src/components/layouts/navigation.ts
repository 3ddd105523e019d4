import {
  BellAlertIcon,
  BuildingStorefrontIcon,
  ChartBarIcon,
  ClipboardDocumentListIcon,
  CreditCardIcon,
  ShieldCheckIcon,
  DocumentTextIcon,
  LinkIcon,
  UserGroupIcon,
  Squares2X2Icon,
} from '@heroicons/react/24/outline';
import type { ComponentType, SVGProps } from 'react';
import { atLeast, type Person } from '@/lib/permissions';
import type { OrgRole } from '@/types/api';

export type NavItem = {
  name: string;
  to: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Shown only to this role and those above it (lib/permissions); to everyone without it. */
  least?: OrgRole;
};

/** Sidebar and slide-out menu entries, top to bottom. */
export const mainNavigation: readonly NavItem[] = [
  { name: 'Dashboard', to: '/dashboard', icon: Squares2X2Icon },
  { name: 'Vendors', to: '/vendors', icon: BuildingStorefrontIcon },
  { name: 'Documents', to: '/documents', icon: DocumentTextIcon },
  { name: 'Reminders', to: '/reminders', icon: BellAlertIcon },
  { name: 'Activity Log', to: '/activity', icon: ClipboardDocumentListIcon },
  { name: 'Reports', to: '/reports', icon: ChartBarIcon },
];

/** The account's own pages, shown with the user's name above Sign out. */
export const accountNavigation: readonly NavItem[] = [
  { name: 'Billing', to: '/billing', icon: CreditCardIcon },
  { name: 'Team', to: '/account/team', icon: UserGroupIcon },
  { name: 'Requirements', to: '/account/requirements', icon: ShieldCheckIcon },
  { name: 'Integrations', to: '/account/integrations', icon: LinkIcon, least: 'admin' },
];

/** The entries `user`'s role lets them open. */
export function navigationFor(items: readonly NavItem[], user: Person): NavItem[] {
  return items.filter((item) => item.least === undefined || atLeast(user, item.least));
}

/** The phone's bottom bar: the plus button sits in the middle. */
export const bottomNavigation = {
  left: [mainNavigation[0], mainNavigation[1]],
  right: [mainNavigation[2], mainNavigation[3]],
} as const;
