import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { queryClient } from '@/lib/query-client';
import { sessionStore } from '@/lib/session';
import { browserTimeZone } from '@/lib/time-zone';
import type { AuthResponse } from '@/types/api';

export type RegisterInput = { name: string; email: string; password: string; company: string };

export function register(input: RegisterInput): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/register', {
    name: input.name.trim(),
    email: input.email.trim(),
    password: input.password,
    company: input.company.trim(),
    // The organization's "today" and its emails' morning; the Account page can change it.
    timeZone: browserTimeZone(),
  });
}

export function useRegister(options: { onSuccess?: (data: AuthResponse) => void; onError?: (error: ApiError) => void } = {}) {
  return useMutation<AuthResponse, ApiError, RegisterInput>({
    mutationFn: register,
    onSuccess: (data) => {
      queryClient.clear();
      sessionStore.signIn(data.token, data.user);
      options.onSuccess?.(data);
    },
    onError: options.onError,
  });
}
