import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { integrationKeys } from './keys';
import type { NewWebhook, WebhookInput } from './types';

/** Adds an endpoint; the answer holds its signing secret, which the server never shows again. */
export function createWebhook(input: WebhookInput): Promise<NewWebhook> {
  return api.post<NewWebhook>('/api/webhooks', { url: input.url.trim(), events: input.events });
}

export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation<NewWebhook, ApiError, WebhookInput>({
    mutationFn: createWebhook,
    onSuccess: () => client.invalidateQueries({ queryKey: integrationKeys.webhooks() }),
  });
}
