import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';

export function requestPasswordReset(email: string): Promise<void> {
  return api.post<void>('/api/auth/forgot', { email: email.trim() });
}

export function useForgotPassword() {
  return useMutation<void, ApiError, string>({ mutationFn: requestPasswordReset });
}
