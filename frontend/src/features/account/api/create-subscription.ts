import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';

export function createSubscription(): Promise<{ url?: string | null }> {
  return api.post<{ url?: string | null }>('/api/create-subscription');
}

/** Starts Stripe Checkout for the Professional plan; the caller redirects to the url. */
export function useCreateSubscription() {
  return useMutation<{ url?: string | null }, ApiError, void>({ mutationFn: createSubscription });
}
