import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { RedirectUrl } from '@/types/api';

export function openBillingPortal(): Promise<RedirectUrl> {
  return api.post<RedirectUrl>('/api/billing/portal');
}

/** A Stripe customer portal session (invoices, payment method, cancel); the caller redirects to the url. */
export function useOpenBillingPortal() {
  return useMutation<RedirectUrl, ApiError, void>({ mutationFn: openBillingPortal });
}
