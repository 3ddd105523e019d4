import { useCallback, useState } from 'react';
import { ERROR_CODES, isApiError, serverMessage } from '@/lib/api-error';
import { usePaymentStatus } from '@/lib/api/get-payment-status';
import { PLAN_REQUIRED_TEXT, PlanRequiredDialog } from './plan-required-dialog';

/**
 * Professional-only actions: a Free organization sees them, and trying one shows the upgrade
 * prompt instead of calling the server. A 402 `plan_required` that comes back anyway (the plan
 * changed meanwhile) shows the server's sentence in the same prompt.
 */
export function usePlanGate() {
  const status = usePaymentStatus();
  const [message, setMessage] = useState<string | null>(null);
  const isFree = status.data?.plan === 'free';

  const guard = useCallback(
    (action: () => void) => {
      if (isFree) setMessage(PLAN_REQUIRED_TEXT);
      else action();
    },
    [isFree],
  );

  /** True when the error was the plan's (the prompt is then showing). */
  const handlePlanError = useCallback((error: unknown): boolean => {
    if (!isApiError(error) || error.code !== ERROR_CODES.planRequired) return false;
    setMessage(serverMessage(error) ?? PLAN_REQUIRED_TEXT);
    return true;
  }, []);

  const dialog = <PlanRequiredDialog message={message} status={status.data} onClose={() => setMessage(null)} />;
  return { guard, handlePlanError, dialog };
}
