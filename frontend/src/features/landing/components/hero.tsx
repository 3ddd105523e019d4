import { ArrowRightIcon, CheckCircleIcon } from '@heroicons/react/20/solid';
import { PlainButtonLink } from '@/components/ui/plain-link';
import { useUser } from '@/lib/session';
import { HeroPreview } from './hero-preview';

const highlights = ['Free for up to 2 vendors', 'No credit card required', 'Vendors upload without an account'];

export function Hero() {
  const user = useUser();
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden
        className="absolute inset-x-0 -top-40 -z-10 h-[36rem] bg-gradient-to-b from-blue-100/70 via-blue-50/40 to-transparent"
      />
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-14 pb-20 sm:px-6 md:pt-20 lg:grid-cols-2 lg:gap-16">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-blue-200 bg-white px-3 py-1 text-xs font-medium text-blue-700">
            <span className="size-1.5 rounded-full bg-blue-600" />
            Vendor compliance, on autopilot
          </p>
          <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
            Never chase an expired vendor certificate again
          </h1>
          <p className="mt-5 max-w-xl text-lg text-slate-600">
            Keep every vendor&apos;s W-9, certificate of insurance, tax certificates and agreements in one place. See what is
            current, expiring or missing at a glance, and let automated reminders handle the renewals.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            {user ? (
              <PlainButtonLink to="/dashboard" size="lg">
                Go to Dashboard
                <ArrowRightIcon aria-hidden className="size-5" />
              </PlainButtonLink>
            ) : (
              <>
                <PlainButtonLink to="/register" size="lg">
                  Start free
                  <ArrowRightIcon aria-hidden className="size-5" />
                </PlainButtonLink>
                <PlainButtonLink to="/login" size="lg" variant="outline">
                  Log In
                </PlainButtonLink>
              </>
            )}
          </div>
          <ul className="mt-8 flex flex-col gap-2 text-sm text-slate-600 sm:flex-row sm:flex-wrap sm:gap-x-6">
            {highlights.map((text) => (
              <li key={text} className="flex items-center gap-2">
                <CheckCircleIcon aria-hidden className="size-5 text-emerald-500" />
                {text}
              </li>
            ))}
          </ul>
        </div>
        <HeroPreview />
      </div>
    </section>
  );
}
