import { scopedKey } from '@/lib/query-keys';

export const accountKeys = {
  all: () => scopedKey('account'),
  paymentStatus: () => [...accountKeys.all(), 'payment-status'] as const,
};
