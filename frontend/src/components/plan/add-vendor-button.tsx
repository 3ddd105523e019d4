import { PlusIcon } from '@heroicons/react/20/solid';
import { ButtonLink } from '@/components/ui/button';
import { isAtVendorLimit } from '@/lib/api/get-payment-status';
import type { PaymentStatus } from '@/types/api';
import { useWritePermission } from '@/lib/permissions';

/** 'Add New Vendor', disabled at the plan's vendor limit (Free: 2) and for viewers. */
export function AddVendorButton({ status }: { status: PaymentStatus | undefined }) {
  const atLimit = isAtVendorLimit(status);
  const write = useWritePermission();
  return (
    <ButtonLink
      to="/vendors/new"
      disabled={atLimit || !write.allowed}
      title={write.reason ?? (atLimit ? `Your plan allows ${status?.vendorLimit ?? ''} vendors` : undefined)}
    >
      <PlusIcon aria-hidden className="size-5" />
      Add New Vendor
    </ButtonLink>
  );
}
