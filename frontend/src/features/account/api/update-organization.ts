import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { authKeys } from '@/lib/api/auth-keys';
import { sessionStore } from '@/lib/session';
import type { OrganizationSettingsInput, User } from '@/types/api';

export function updateOrganization(input: OrganizationSettingsInput): Promise<User> {
  return api.put<User>('/api/account/organization', input);
}

/**
 * Saves the organization's settings (its time zone). Its "today" changes with it, so every
 * answer computed from the day is read again; the updated user replaces the stored one.
 */
export function useUpdateOrganization() {
  const client = useQueryClient();
  return useMutation<User, ApiError, OrganizationSettingsInput>({
    mutationFn: updateOrganization,
    onSuccess: (user) => {
      const next = { ...user, id: String(user.id) };
      client.setQueryData(authKeys.me(), next);
      if (sessionStore.get().user) sessionStore.setUser(next);
      void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== authKeys.me()[0] });
    },
  });
}
