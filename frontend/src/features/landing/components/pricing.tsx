import { CheckIcon } from '@heroicons/react/20/solid';
import { FOCUS_ON_BLUE } from '@/components/ui/button-styles';
import { PlainButtonLink } from '@/components/ui/plain-link';
import { seatsText, usePlanSeats } from '@/lib/api/public-config';
import { useUser } from '@/lib/session';

const freeFeatures = [
  '2 vendor profiles',
  'Up to 10 documents per vendor',
  'Expiration tracking',
  'Automated email reminders',
  'Priority email support',
];

const professionalFeatures = [
  'Up to 25 vendors',
  'Priority email support',
  'Advanced reporting dashboard',
  'Bulk document operations',
  'Everything in the Free plan',
];

function FeatureList({ items, light = false }: { items: string[]; light?: boolean }) {
  return (
    <ul className={light ? 'space-y-3 text-sm text-blue-50' : 'space-y-3 text-sm text-slate-700'}>
      {items.map((item) => (
        <li key={item} className="flex gap-3">
          <CheckIcon aria-hidden className={light ? 'size-5 shrink-0 text-white' : 'size-5 shrink-0 text-blue-600'} />
          {item}
        </li>
      ))}
    </ul>
  );
}

export function Pricing() {
  const user = useUser();
  const seats = usePlanSeats();
  const cta = user ? '/dashboard' : '/register';
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-20 bg-white py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold text-blue-600">Pricing</p>
          <h2 id="pricing-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Start free, upgrade when you grow
          </h2>
          <p className="mt-4 text-slate-600">Simple plans with no surprises.</p>
        </div>
        <div className="mx-auto mt-12 grid max-w-4xl gap-6 md:grid-cols-2">
          <article
            aria-labelledby="plan-free"
            className="flex flex-col rounded-2xl border border-slate-200 bg-white p-8 shadow-sm"
          >
            <h3 id="plan-free" className="text-lg font-semibold text-slate-900">
              Free
            </h3>
            <p className="mt-1 text-sm text-slate-600">Everything you need to get a small vendor list in order.</p>
            <p className="mt-6 flex items-baseline gap-2">
              <span className="text-4xl font-extrabold tracking-tight text-slate-900">$0</span>
              <span className="text-sm font-medium text-slate-500">forever</span>
            </p>
            <div className="mt-8 flex-1">
              <FeatureList items={[seatsText(seats.free), ...freeFeatures]} />
            </div>
            <PlainButtonLink to={cta} variant="outline" size="lg" className="mt-8 w-full">
              {user ? 'Go to Dashboard' : 'Get started free'}
            </PlainButtonLink>
          </article>
          <article
            aria-labelledby="plan-professional"
            className="relative flex flex-col rounded-2xl bg-gradient-to-b from-blue-600 to-blue-700 p-8 text-white shadow-xl ring-1 ring-blue-700"
          >
            <span className="absolute -top-3 right-6 rounded-full bg-amber-400 px-3 py-1 text-xs font-semibold text-amber-950">
              Most popular
            </span>
            <h3 id="plan-professional" className="text-lg font-semibold">
              Professional
            </h3>
            <p className="mt-1 text-sm text-blue-50">For teams managing a growing roster of vendors.</p>
            <p className="mt-6 flex items-baseline gap-1">
              <span className="text-4xl font-extrabold tracking-tight">$29</span>
              <span className="text-sm font-medium text-blue-50">/month</span>
            </p>
            <div className="mt-8 flex-1">
              <FeatureList items={[seatsText(seats.professional), ...professionalFeatures]} light />
            </div>
            <PlainButtonLink
              to={cta}
              variant="outline"
              size="lg"
              className={`mt-8 w-full border-transparent text-blue-700 ${FOCUS_ON_BLUE}`}
            >
              {user ? 'Go to Dashboard' : 'Start with Professional'}
            </PlainButtonLink>
            <p className="mt-4 text-center text-xs text-blue-50">Cancel anytime • No setup fees • Instant activation</p>
          </article>
        </div>
      </div>
    </section>
  );
}
