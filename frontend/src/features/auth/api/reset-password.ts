import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';

export type ResetPasswordInput = { token: string; password: string };

export function resetPassword(input: ResetPasswordInput): Promise<void> {
  return api.post<void>('/api/auth/reset', input);
}

export function useResetPassword() {
  return useMutation<void, ApiError, ResetPasswordInput>({ mutationFn: resetPassword });
}
