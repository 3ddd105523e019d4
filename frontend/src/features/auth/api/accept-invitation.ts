import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { queryClient } from '@/lib/query-client';
import { sessionStore } from '@/lib/session';
import type { AuthResponse } from '@/types/api';

export type AcceptInvitationInput = { token: string; name: string; password: string };

export function acceptInvitation({ token, name, password }: AcceptInvitationInput): Promise<AuthResponse> {
  return api.post<AuthResponse>(`/api/invitations/${encodeURIComponent(token)}/accept`, { name: name.trim(), password });
}

/** Creates the account in the inviting organization and signs it in, as registration does. */
export function useAcceptInvitation(
  options: { onSuccess?: (data: AuthResponse) => void; onError?: (error: ApiError) => void } = {},
) {
  return useMutation<AuthResponse, ApiError, AcceptInvitationInput>({
    mutationFn: acceptInvitation,
    onSuccess: (data) => {
      queryClient.clear();
      sessionStore.signIn(data.token, data.user);
      options.onSuccess?.(data);
    },
    onError: options.onError,
  });
}
