import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { integrationKeys } from './keys';
import type { ApiKeyInput, NewApiKey } from './types';

/** Creates a key; the answer holds the full key, which the server never shows again. */
export function createApiKey(input: ApiKeyInput): Promise<NewApiKey> {
  return api.post<NewApiKey>('/api/api-keys', { name: input.name.trim(), scope: input.scope });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation<NewApiKey, ApiError, ApiKeyInput>({
    mutationFn: createApiKey,
    onSuccess: () => client.invalidateQueries({ queryKey: integrationKeys.apiKeys() }),
  });
}
