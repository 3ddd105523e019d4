import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { integrationKeys } from './keys';
import type { WebhookDelivery } from './types';

/** An endpoint's latest deliveries, newest first (at most 50). */
export function getWebhookDeliveries(webhookId: string): Promise<WebhookDelivery[]> {
  return api.get<WebhookDelivery[]>(`/api/webhooks/${encodeURIComponent(webhookId)}/deliveries`);
}

export function getWebhookDeliveriesQueryOptions(webhookId: string) {
  return queryOptions({
    queryKey: integrationKeys.deliveries(webhookId),
    queryFn: () => getWebhookDeliveries(webhookId),
  });
}

export function useWebhookDeliveries(webhookId: string) {
  return useQuery(getWebhookDeliveriesQueryOptions(webhookId));
}
