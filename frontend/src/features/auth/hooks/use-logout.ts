import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { sessionStore } from '@/lib/session';
import { logoutOnServer } from '../api/logout';

/**
 * Logout: end the token on the server (while it is still stored, to send it), then go to /,
 * then clear token, user and user id and forget cached data. The server call failing does not
 * stop the rest. Leaving the guarded page first keeps the auth guard from sending the user to
 * /login instead.
 */
export function useLogout() {
  const navigate = useNavigate();
  const client = useQueryClient();
  return useCallback(async () => {
    await logoutOnServer();
    await navigate('/', { flushSync: true });
    sessionStore.signOut();
    client.clear();
  }, [client, navigate]);
}
