import { UpgradeConfirmation } from '../components/upgrade-confirmation';

/** Stripe's return page after paying (signed-in layout): to /dashboard after 2 s, or 2 s on failure. */
const DELAYS = { success: 2000, failure: 2000 };

export function PaymentSuccessRoute() {
  return (
    <div className="py-6 sm:py-10">
      <UpgradeConfirmation title="Thank you for your payment!" delays={DELAYS} />
    </div>
  );
}

export default PaymentSuccessRoute;
