import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { sessionStore } from '@/lib/session';

/**
 * Logout: go to /, then clear token, user and user id and forget cached data. Leaving the
 * guarded page first keeps the auth guard from sending the user to /login instead.
 */
export function useLogout() {
  const navigate = useNavigate();
  const client = useQueryClient();
  return useCallback(async () => {
    await navigate('/', { flushSync: true });
    sessionStore.signOut();
    client.clear();
  }, [client, navigate]);
}
