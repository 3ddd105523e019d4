import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { User } from '@/types/api';
import { authKeys } from './auth-keys';

export function getMe(): Promise<User> {
  return api.get<User>('/api/auth/me');
}

export function getMeQueryOptions() {
  return queryOptions({ queryKey: authKeys.me(), queryFn: getMe });
}

export function useMe() {
  return useQuery(getMeQueryOptions());
}
