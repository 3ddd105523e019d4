import type { DeliveryStatus, WebhookDelivery, WebhookEvent } from '../api/types';

/** Each event in plain words, in the server's order (the Add endpoint dialog lists them so). */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'vendor.created': 'Vendor created',
  'vendor.updated': 'Vendor updated',
  'vendor.deleted': 'Vendor deleted',
  'document.uploaded': 'Document uploaded',
  'document.expiring': 'Document expiring',
  'document.expired': 'Document expired',
  'vendor.status_changed': 'Vendor status changed',
  'vendor.gaps_changed': 'Vendor gaps changed',
};

export const WEBHOOK_EVENTS = Object.keys(WEBHOOK_EVENT_LABELS) as WebhookEvent[];

/** A delivery's event in plain words: 'Test event' for a ping, the raw name for one this screen does not know. */
export function eventLabel(type: WebhookDelivery['type']): string {
  if (type === 'ping') return 'Test event';
  return WEBHOOK_EVENT_LABELS[type] ?? type;
}

/** 'All events', or the events' labels. */
export function eventsSummary(events: readonly WebhookEvent[]): string {
  if (WEBHOOK_EVENTS.every((event) => events.includes(event))) return 'All events';
  return events.map(eventLabel).join(', ');
}

export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};
