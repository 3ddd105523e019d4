import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { integrationKeys } from './keys';

export function revokeApiKey(id: string): Promise<void> {
  return api.delete(`/api/api-keys/${encodeURIComponent(id)}`);
}

/** Revokes a key: calls made with it are refused at once. */
export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: revokeApiKey,
    onSuccess: () => client.invalidateQueries({ queryKey: integrationKeys.apiKeys() }),
  });
}
