import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from '@/components/ui/toast';
import { getMeQueryOptions } from '@/lib/api/get-me';
import { sessionStore } from '@/lib/session';

let inFlight: Promise<void> | null = null;

/**
 * Validates a stored token with GET /api/auth/me. Any failure means the session is over:
 * toast 'Session expired' and log out (docs/product.md, "Screens").
 */
export function validateSession(client: QueryClient): Promise<void> {
  const { token, status } = sessionStore.get();
  if (!token || status !== 'loading') return Promise.resolve();
  inFlight ??= client
    .fetchQuery({ ...getMeQueryOptions(), staleTime: 0 })
    .then((user) => {
      // A login that happened meanwhile wins over a stale answer.
      if (sessionStore.get().token === token) sessionStore.setUser({ ...user, id: String(user.id) });
    })
    .catch(() => {
      if (sessionStore.get().token !== token) return;
      sessionStore.signOut();
      client.clear();
      toast({ title: 'Session expired', variant: 'error' });
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

export function useValidateSession() {
  const client = useQueryClient();
  useEffect(() => {
    void validateSession(client);
  }, [client]);
}
