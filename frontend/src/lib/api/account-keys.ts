import { scopedKey } from '@/lib/query-keys';

/** Keys of the plan's read (get-payment-status), which several features read and refresh. */
export const accountKeys = {
  all: () => scopedKey('account'),
  paymentStatus: () => [...accountKeys.all(), 'payment-status'] as const,
};
