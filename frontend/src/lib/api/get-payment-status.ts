import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PaymentStatus } from '@/types/api';
import { accountKeys } from './account-keys';

export function getPaymentStatus(): Promise<PaymentStatus> {
  return api.get<PaymentStatus>('/api/payment-status');
}

export function getPaymentStatusQueryOptions() {
  return queryOptions({ queryKey: accountKeys.paymentStatus(), queryFn: getPaymentStatus });
}

export function usePaymentStatus() {
  return useQuery(getPaymentStatusQueryOptions());
}

/** At or above the plan's vendor limit (Free: 2): no new vendors. */
export function isAtVendorLimit(status: PaymentStatus | undefined): boolean {
  return status !== undefined && status.currentVendorCount >= status.vendorLimit;
}
