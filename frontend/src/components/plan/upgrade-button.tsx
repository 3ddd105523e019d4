import { ArrowPathIcon } from '@heroicons/react/20/solid';
import { Button, type ButtonSize, type ButtonVariant } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import type { PaymentStatus } from '@/types/api';
import { useBillingPermission } from '@/lib/permissions';
import { useStartCheckout } from './use-start-checkout';

/** Shown instead of an Upgrade Now button that could only fail: the server has no Stripe key. */
export const BILLING_OFF_TEXT = 'Online payment is not set up on this server. Ask your administrator to upgrade your plan.';

type UpgradeButtonProps = {
  status: PaymentStatus;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  /** Classes for the billing-off sentence, so it reads well on the card's blue or on white. */
  noticeClassName?: string;
};

/** Upgrade Now (spinner and disabled while checkout starts), or the billing-off sentence. */
export function UpgradeButton({ status, variant = 'primary', size = 'md', className, noticeClassName }: UpgradeButtonProps) {
  const checkout = useStartCheckout();
  const billing = useBillingPermission();
  if (!status.billingEnabled) {
    return (
      <p data-testid="billing-off" className={cn('max-w-sm text-sm', noticeClassName)}>
        {BILLING_OFF_TEXT}
      </p>
    );
  }
  return (
    <Button
      variant={variant}
      size={size}
      className={cn('shrink-0', className)}
      onClick={checkout.start}
      disabled={checkout.pending || !billing.allowed}
      title={billing.reason}
      aria-busy={checkout.pending || undefined}
    >
      {checkout.pending ? <ArrowPathIcon aria-hidden data-testid="upgrade-spinner" className="size-4 animate-spin" /> : null}
      Upgrade Now
    </Button>
  );
}
