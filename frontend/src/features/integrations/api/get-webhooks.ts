import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { integrationKeys } from './keys';
import type { Webhook } from './types';

/** The organization's webhook endpoints (admins and the owner only). */
export function getWebhooks(): Promise<Webhook[]> {
  return api.get<Webhook[]>('/api/webhooks');
}

export function getWebhooksQueryOptions() {
  return queryOptions({ queryKey: integrationKeys.webhooks(), queryFn: getWebhooks });
}

export function useWebhooks() {
  return useQuery(getWebhooksQueryOptions());
}
