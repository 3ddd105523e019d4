import { SparklesIcon } from '@heroicons/react/24/outline';
import { FOCUS_ON_BLUE } from '@/components/ui/button';
import { PROFESSIONAL_PRICE, PROFESSIONAL_VENDOR_LIMIT } from '@/config';
import { seatsText, usePlanSeats } from '@/lib/api/public-config';
import type { PaymentStatus } from '@/types/api';
import { UpgradeButton } from './upgrade-button';

/** Shown when the plan is free or the vendor count >= the limit minus 1 (docs/product.md, "Screens"). */
export function shouldShowUpgrade(status: PaymentStatus | undefined): boolean {
  if (!status) return false;
  return status.plan === 'free' || status.currentVendorCount >= status.vendorLimit - 1;
}

export function UpgradeCard({ status }: { status: PaymentStatus | undefined }) {
  // Once per page load, like the support address: not read again on each visit.
  const seats = usePlanSeats().professional;
  if (!shouldShowUpgrade(status) || !status) return null;
  const professional = status.plan === 'professional';

  return (
    <section
      aria-label="Upgrade"
      data-testid="upgrade-card"
      className="mb-6 flex flex-col gap-4 rounded-xl bg-gradient-to-r from-blue-600 to-indigo-600 p-5 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex gap-4">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/15">
          <SparklesIcon aria-hidden className="size-6" />
        </div>
        <div>
          <h2 className="font-semibold">{professional ? 'You are close to your vendor limit' : 'Upgrade to Professional'}</h2>
          <p className="mt-1 text-sm text-blue-50">
            {professional
              ? `You are using ${status.currentVendorCount} of ${status.vendorLimit} vendors. Contact support for a larger plan.`
              : `Track up to ${PROFESSIONAL_VENDOR_LIMIT} vendors with priority email support, advanced reporting and bulk document operations for $${PROFESSIONAL_PRICE}/month. ${seatsText(seats)} on your team. You are using ${status.currentVendorCount} of ${status.vendorLimit} vendors.`}
          </p>
        </div>
      </div>
      {professional ? null : (
        <UpgradeButton
          status={status}
          variant="outline"
          className={`border-transparent text-blue-700 ${FOCUS_ON_BLUE}`}
          noticeClassName="text-blue-50"
        />
      )}
    </section>
  );
}
