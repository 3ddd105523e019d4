import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { BillingPortalSession } from '@/types/api';

export function openBillingPortal(): Promise<BillingPortalSession> {
  return api.post<BillingPortalSession>('/api/billing/portal');
}

/** A Stripe customer portal session (invoices, payment method, cancel); the caller redirects to the url. */
export function useOpenBillingPortal() {
  return useMutation<BillingPortalSession, ApiError, void>({ mutationFn: openBillingPortal });
}
