import { Logo } from '@/components/logo';
import { UpgradeConfirmation } from '../components/upgrade-confirmation';

/** The public thank-you page after an upgrade: to /dashboard after 1.5 s, or 1 s on failure. */
const DELAYS = { success: 1500, failure: 1000 };

export function UpgradeSuccessRoute() {
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-blue-50 via-white to-white">
      <header className="mx-auto w-full max-w-lg px-4 pt-6">
        <Logo />
      </header>
      <main className="flex flex-1 items-center px-4 py-10">
        <UpgradeConfirmation title="Thank you for upgrading!" delays={DELAYS} />
      </main>
    </div>
  );
}

export default UpgradeSuccessRoute;
