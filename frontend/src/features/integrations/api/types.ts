/**
 * The Integrations page's shapes. Hand-written: this mirrors the server's OpenAPI schemas ApiKey,
 * NewApiKey, Webhook, NewWebhook, WebhookDelivery, CalendarFeed until they are in openapi.json
 * (then these names come from '@/types/api', generated).
 */

/** What a key may do: read only, or read and write. */
export type ApiKeyScope = 'read' | 'write';

/** An API key as listed: never the key itself, only its first 8 characters. */
export type ApiKey = {
  id: string;
  name: string;
  scope: ApiKeyScope;
  /** The key's first 8 characters ('vwk_a1B2'). */
  prefix: string;
  createdAt: string;
  /** The name of the person who created it; null once they have left. */
  createdBy: string | null;
  lastUsedAt: string | null;
};

/** 201 of POST /api/api-keys: the key in full (`vwk_` and 40 characters), shown this once. */
export type NewApiKey = ApiKey & { key: string };

/** Body of POST /api/api-keys. */
export type ApiKeyInput = { name: string; scope: ApiKeyScope };

/** The events a webhook endpoint may subscribe to. */
export type WebhookEvent =
  | 'vendor.created'
  | 'vendor.updated'
  | 'vendor.deleted'
  | 'document.uploaded'
  | 'document.expiring'
  | 'document.expired'
  | 'vendor.status_changed'
  | 'vendor.gaps_changed';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export type Webhook = {
  id: string;
  url: string;
  events: WebhookEvent[];
  createdAt: string;
  lastDelivery: { status: DeliveryStatus; at: string } | null;
};

/** 201 of POST /api/webhooks: the endpoint and its signing secret (`whsec_...`), shown this once. */
export type NewWebhook = Webhook & { secret: string };

/** Body of POST /api/webhooks. */
export type WebhookInput = { url: string; events: WebhookEvent[] };

/** One event sent (or being sent) to an endpoint; a test event's type is 'ping'. */
export type WebhookDelivery = {
  id: string;
  eventId: string;
  type: WebhookEvent | 'ping';
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  responseSnippet: string | null;
  /** Why the last attempt failed without an answer ('No answer within 10 seconds'). */
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
};

/** GET /api/calendar-feed and POST /api/calendar-feed/rotate: the feed's secret address (.ics). */
export type CalendarFeed = { url: string };
