import { CheckCircleIcon, ClockIcon, XCircleIcon } from '@heroicons/react/20/solid';
import { Badge, type BadgeColor } from '@/components/ui/badge';
import type { DeliveryStatus } from '../api/types';
import { DELIVERY_STATUS_LABELS } from './webhook-events';

const LOOKS: Record<DeliveryStatus, { color: BadgeColor; icon: typeof CheckCircleIcon }> = {
  delivered: { color: 'green', icon: CheckCircleIcon },
  failed: { color: 'red', icon: XCircleIcon },
  pending: { color: 'yellow', icon: ClockIcon },
};

/**
 * A delivery's status in words, colour and icon (the colour is never all it says). `context`
 * ('Last delivery') is read to screen readers before the status.
 */
export function DeliveryStatusBadge({ status, context }: { status: DeliveryStatus; context?: string }) {
  const { color, icon: Icon } = LOOKS[status];
  return (
    <Badge color={color}>
      <Icon aria-hidden className="size-3.5" />
      {context ? <span className="sr-only">{context}: </span> : null}
      {DELIVERY_STATUS_LABELS[status]}
    </Badge>
  );
}
