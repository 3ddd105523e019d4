import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { authKeys } from '@/lib/api/auth-keys';
import { sessionStore } from '@/lib/session';
import type { PreferencesInput, User } from '@/types/api';

export function updatePreferences(input: PreferencesInput): Promise<User> {
  return api.put<User>('/api/account/preferences', input);
}

/** Saves the user's preferences; the answer (the updated user) replaces the stored and cached user. */
export function useUpdatePreferences() {
  const client = useQueryClient();
  return useMutation<User, ApiError, PreferencesInput>({
    mutationFn: updatePreferences,
    onSuccess: (user) => {
      const next = { ...user, id: String(user.id) };
      client.setQueryData(authKeys.me(), next);
      if (sessionStore.get().user) sessionStore.setUser(next);
    },
  });
}
