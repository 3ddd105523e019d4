import {
  ArrowUpTrayIcon,
  BuildingStorefrontIcon,
  ClockIcon,
  DocumentMinusIcon,
  CreditCardIcon,
  ExclamationTriangleIcon,
  InformationCircleIcon,
  PencilSquareIcon,
  ShieldCheckIcon,
  TrashIcon,
} from '@heroicons/react/24/outline';
import type { ComponentType, SVGProps } from 'react';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import type { ActivityEntry } from '@/types/api';

type IconStyle = { icon: ComponentType<SVGProps<SVGSVGElement>>; className: string; label: string };

/** Each activity type has its own icon; any other value gets the default one. */
export const ACTIVITY_STYLES: Record<string, IconStyle> = {
  vendor_created: { icon: BuildingStorefrontIcon, className: 'bg-blue-50 text-blue-600', label: 'Vendor created' },
  vendor_updated: { icon: PencilSquareIcon, className: 'bg-indigo-50 text-indigo-600', label: 'Vendor updated' },
  vendor_deleted: { icon: TrashIcon, className: 'bg-slate-100 text-slate-600', label: 'Vendor deleted' },
  document_uploaded: { icon: ArrowUpTrayIcon, className: 'bg-emerald-50 text-emerald-600', label: 'Document uploaded' },
  document_updated: { icon: ClockIcon, className: 'bg-violet-50 text-violet-600', label: 'Document updated' },
  document_deleted: { icon: DocumentMinusIcon, className: 'bg-slate-100 text-slate-600', label: 'Document deleted' },
  document_expired: { icon: ExclamationTriangleIcon, className: 'bg-red-50 text-red-600', label: 'Document expired' },
  plan_changed: { icon: CreditCardIcon, className: 'bg-amber-50 text-amber-600', label: 'Plan changed' },
  gap_waived: { icon: ShieldCheckIcon, className: 'bg-teal-50 text-teal-600', label: 'Gap waived' },
};

const DEFAULT_STYLE: IconStyle = { icon: InformationCircleIcon, className: 'bg-slate-100 text-slate-500', label: 'Activity' };

export function activityStyle(type: string): IconStyle {
  return ACTIVITY_STYLES[type] ?? DEFAULT_STYLE;
}

/** Who made the change: the person, else where it came from. */
export function activityAuthor(entry: ActivityEntry): string {
  if (entry.actor) return entry.actor.name;
  switch (entry.source) {
    case 'vendor_portal':
      return 'Vendor portal';
    case 'api':
      return 'API';
    default:
      return 'Vendorwatch';
  }
}

/** An activity row: icon, description, creation time like 'Jan 5, 2025 - 3:07 PM', and who. */
export function ActivityRow({ entry }: { entry: ActivityEntry }) {
  const style = activityStyle(entry.activityType);
  const Icon = style.icon;
  return (
    <li className="flex gap-3 py-3" data-activity-type={entry.activityType}>
      <span className={cn('flex size-9 shrink-0 items-center justify-center rounded-full', style.className)} title={style.label}>
        <Icon aria-hidden className="size-5" />
      </span>
      <div className="min-w-0">
        <p className="text-sm text-slate-800">{entry.description}</p>
        <p className="mt-0.5 text-xs text-slate-500">
          <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
          <span aria-hidden> · </span>
          <span className="sr-only">, by </span>
          <span data-testid="activity-author">{activityAuthor(entry)}</span>
        </p>
      </div>
    </li>
  );
}
