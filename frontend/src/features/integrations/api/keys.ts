import { scopedKey } from '@/lib/query-keys';

/** The Integrations page's reads, scoped to the signed-in tenant. */
export const integrationKeys = {
  all: () => scopedKey('integrations'),
  apiKeys: () => [...integrationKeys.all(), 'api-keys'] as const,
  webhooks: () => [...integrationKeys.all(), 'webhooks'] as const,
  deliveries: (webhookId: string) => [...integrationKeys.webhooks(), webhookId, 'deliveries'] as const,
  calendarFeed: () => [...integrationKeys.all(), 'calendar-feed'] as const,
};
