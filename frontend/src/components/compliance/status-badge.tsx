import { Badge, type BadgeColor } from '@/components/ui/badge';
import { statusLabel } from '@/lib/domain/documents';
import type { DocumentStatus } from '@/types/api';

export const STATUS_COLORS: Record<DocumentStatus, BadgeColor> = {
  current: 'green',
  expiring_soon: 'yellow',
  expired: 'red',
  missing: 'gray',
};

const dotColors: Record<DocumentStatus, string> = {
  current: 'bg-emerald-500',
  expiring_soon: 'bg-amber-400',
  expired: 'bg-red-500',
  missing: 'bg-slate-300',
};

export function statusDotClass(status: string): string {
  return dotColors[status as DocumentStatus] ?? dotColors.missing;
}

/** A document's or vendor's compliance status as a coloured badge. */
export function StatusBadge({ status }: { status: string }) {
  const color = STATUS_COLORS[status as DocumentStatus] ?? 'gray';
  return (
    <Badge color={color}>
      <span aria-hidden className={`size-1.5 rounded-full ${statusDotClass(status)}`} />
      {statusLabel(status)}
    </Badge>
  );
}
