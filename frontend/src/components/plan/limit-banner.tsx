import { ExclamationTriangleIcon } from '@heroicons/react/20/solid';
import { isAtVendorLimit } from '@/lib/api/get-payment-status';
import type { PaymentStatus } from '@/types/api';
import { UpgradeButton } from './upgrade-button';

type LimitBannerProps = {
  status: PaymentStatus | undefined;
  /** Offer Upgrade Now in the banner; off where an upgrade card already offers it (the dashboard). */
  upgrade?: boolean;
};

/** 'Free account limit reached': shown on a Free account that has reached its vendor limit. */
export function LimitBanner({ status, upgrade = true }: LimitBannerProps) {
  if (!status || status.plan !== 'free' || !isAtVendorLimit(status)) return null;
  return (
    <div
      role="alert"
      className="mb-6 flex flex-col gap-4 rounded-xl border border-amber-200 bg-amber-50 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex gap-3">
        <ExclamationTriangleIcon aria-hidden className="size-5 shrink-0 text-amber-500" />
        <div>
          <p className="text-sm font-semibold text-amber-900">Free account limit reached</p>
          <p className="mt-1 text-sm text-amber-800">
            Free accounts are limited to a maximum of {status.vendorLimit} vendors. You have reached this limit.
          </p>
        </div>
      </div>
      {upgrade ? <UpgradeButton status={status} size="sm" noticeClassName="text-amber-900 sm:text-right" /> : null}
    </div>
  );
}
