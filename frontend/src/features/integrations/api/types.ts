/**
 * The Integrations page's shapes: the generated OpenAPI schemas ApiKey, NewApiKey, Webhook,
 * NewWebhook, WebhookDelivery and CalendarFeed, as `@/types/api` names them.
 */
export type {
  ApiKey,
  ApiKeyInput,
  ApiKeyScope,
  CalendarFeed,
  DeliveryStatus,
  NewApiKey,
  NewWebhook,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
  WebhookInput,
} from '@/types/api';
