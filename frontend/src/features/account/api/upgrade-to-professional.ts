import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { UpgradeResult } from '@/types/api';

export type UpgradeInput = {
  /** Stripe's checkout session id from the return URL; the server looks it up with Stripe. */
  sessionId?: string;
};

export function upgradeToProfessional({ sessionId }: UpgradeInput): Promise<UpgradeResult> {
  return api.post<UpgradeResult>('/api/upgrade-to-professional', sessionId ? { sessionId } : {});
}

/**
 * Asks the server to confirm a payment and grant Professional. It answers 200 only when Stripe
 * confirmed the payment (402 `payment_not_confirmed` otherwise). No invalidation here: the thank-you
 * pages refresh the user and the plan on their own schedule.
 */
export function useUpgradeToProfessional() {
  return useMutation<UpgradeResult, ApiError, UpgradeInput>({ mutationFn: upgradeToProfessional });
}
