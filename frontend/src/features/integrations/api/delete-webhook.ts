import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { integrationKeys } from './keys';

export function deleteWebhook(id: string): Promise<void> {
  return api.delete(`/api/webhooks/${encodeURIComponent(id)}`);
}

/** Deletes an endpoint: no more events go to it. */
export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: deleteWebhook,
    onSuccess: () => client.invalidateQueries({ queryKey: integrationKeys.webhooks() }),
  });
}
