import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { authKeys } from '@/lib/api/auth-keys';
import { sessionStore } from '@/lib/session';
import type { TeamMember } from '@/types/api';
import { teamKeys } from './keys';

export function transferOwnership(memberId: string): Promise<TeamMember> {
  return api.post<TeamMember>('/api/team/transfer-ownership', { memberId });
}

/** Makes a member the owner; the former owner becomes an admin, so the session's user is read again. */
export function useTransferOwnership() {
  const client = useQueryClient();
  return useMutation<TeamMember, ApiError, string>({
    mutationFn: transferOwnership,
    onSuccess: () => {
      // The former owner is an admin from now on: the screens follow at once.
      const me = sessionStore.get().user;
      if (me) sessionStore.setUser({ ...me, orgRole: 'admin' });
      return Promise.all([
        client.invalidateQueries({ queryKey: teamKeys.all() }),
        client.invalidateQueries({ queryKey: authKeys.me() }),
      ]);
    },
  });
}
