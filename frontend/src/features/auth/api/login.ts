import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { queryClient } from '@/lib/query-client';
import { sessionStore } from '@/lib/session';
import type { AuthResponse } from '@/types/api';

export type LoginInput = { email: string; password: string };

export function login(input: LoginInput): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/login', { email: input.email.trim(), password: input.password });
}

/** Signs in and stores the session; screens add their own toasts and navigation. */
export function useLogin(options: { onSuccess?: (data: AuthResponse) => void; onError?: (error: ApiError) => void } = {}) {
  return useMutation<AuthResponse, ApiError, LoginInput>({
    mutationFn: login,
    onSuccess: (data) => {
      queryClient.clear();
      sessionStore.signIn(data.token, data.user);
      options.onSuccess?.(data);
    },
    onError: options.onError,
  });
}
