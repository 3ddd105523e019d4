import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { integrationKeys } from './keys';
import type { WebhookDelivery } from './types';

/** Queues a 'ping' event to the endpoint (202); it is sent a moment later. */
export function sendTestEvent(webhookId: string): Promise<WebhookDelivery> {
  return api.post<WebhookDelivery>(`/api/webhooks/${encodeURIComponent(webhookId)}/test`);
}

export function useSendTestEvent() {
  const client = useQueryClient();
  return useMutation<WebhookDelivery, ApiError, string>({
    mutationFn: sendTestEvent,
    onSuccess: (_delivery, webhookId) =>
      Promise.all([
        client.invalidateQueries({ queryKey: integrationKeys.deliveries(webhookId) }),
        client.invalidateQueries({ queryKey: integrationKeys.webhooks(), exact: true }),
      ]),
  });
}
