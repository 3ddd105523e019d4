import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ERROR_CODES, type ApiError } from '@/lib/api-error';
import type { RedirectUrl } from '@/types/api';
import { accountKeys } from './account-keys';
import { authKeys } from './auth-keys';

export function createSubscription(): Promise<RedirectUrl> {
  return api.post<RedirectUrl>('/api/create-subscription');
}

/**
 * Starts Stripe Checkout for the Professional plan; the caller redirects to the url. A refusal
 * that says our picture of the plan is out of date (billing switched off, already Professional)
 * refreshes the plan so the upgrade prompts change.
 */
export function useCreateSubscription() {
  const client = useQueryClient();
  return useMutation<RedirectUrl, ApiError, void>({
    mutationFn: createSubscription,
    onError: (error) => {
      if (error.code === ERROR_CODES.billingNotConfigured || error.code === ERROR_CODES.alreadyProfessional) {
        void client.invalidateQueries({ queryKey: accountKeys.all() });
        void client.invalidateQueries({ queryKey: authKeys.me() });
      }
    },
  });
}
