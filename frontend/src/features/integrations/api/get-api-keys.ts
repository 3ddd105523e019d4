import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { integrationKeys } from './keys';
import type { ApiKey } from './types';

/** The organization's API keys (admins and the owner only). */
export function getApiKeys(): Promise<ApiKey[]> {
  return api.get<ApiKey[]>('/api/api-keys');
}

export function getApiKeysQueryOptions() {
  return queryOptions({ queryKey: integrationKeys.apiKeys(), queryFn: getApiKeys });
}

export function useApiKeys() {
  return useQuery(getApiKeysQueryOptions());
}
