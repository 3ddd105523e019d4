import { CheckCircleIcon } from '@heroicons/react/24/outline';
import { ButtonLink } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useConfirmUpgrade, type RedirectDelays } from '../hooks/use-confirm-upgrade';

type UpgradeConfirmationProps = {
  title: string;
  delays: RedirectDelays;
};

export const UPGRADE_TEXTS = {
  confirming: 'Confirming your payment...',
  upgraded: 'Your account is now on the Professional plan.',
  failed:
    'We could not confirm your payment yet. If you paid, your plan changes to Professional as soon as the payment is confirmed.',
  redirecting: 'Taking you to your dashboard...',
} as const;

/** The body of both thank-you pages: thanks, then the confirmation's progress, then the redirect. */
export function UpgradeConfirmation({ title, delays }: UpgradeConfirmationProps) {
  const outcome = useConfirmUpgrade(delays);
  return (
    <div className="mx-auto flex w-full max-w-lg flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center shadow-sm sm:px-10">
      <CheckCircleIcon aria-hidden className="size-12 text-green-600" />
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      <div aria-live="polite" className="mt-4 flex flex-col items-center gap-3 text-sm text-slate-600">
        {outcome === 'confirming' ? (
          <>
            <Spinner label="Confirming your payment" />
            <p>{UPGRADE_TEXTS.confirming}</p>
          </>
        ) : (
          <>
            {outcome === 'upgraded' ? <p>{UPGRADE_TEXTS.upgraded}</p> : null}
            {outcome === 'failed' ? <p>{UPGRADE_TEXTS.failed}</p> : null}
            <p>{UPGRADE_TEXTS.redirecting}</p>
          </>
        )}
      </div>
      <ButtonLink to="/dashboard" replace variant="outline" className="mt-8">
        Go to Dashboard
      </ButtonLink>
    </div>
  );
}
