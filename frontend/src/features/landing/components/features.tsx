import {
  ArrowUpTrayIcon,
  BellAlertIcon,
  CalendarDaysIcon,
  ChartBarIcon,
  ClipboardDocumentListIcon,
  ClockIcon,
} from '@heroicons/react/24/outline';

const features = [
  {
    name: 'Expiration tracking',
    description: 'Every document shows whether it is current, expiring within 30 days or expired, computed fresh each day.',
    icon: CalendarDaysIcon,
  },
  {
    name: 'Automated reminders',
    description: 'Email reminders go out to you and your vendor before a document expires, so renewals arrive on time.',
    icon: BellAlertIcon,
  },
  {
    name: 'Vendor upload portal',
    description: 'Give each vendor a company key. They upload their own documents, no account needed.',
    icon: ArrowUpTrayIcon,
  },
  {
    name: 'Activity log',
    description: 'See who added a vendor, uploaded a document or let one expire, with the exact time.',
    icon: ClipboardDocumentListIcon,
  },
  {
    name: 'Compliance dashboard',
    description: 'One screen with every vendor, seven document slots each, and the ones that need attention first.',
    icon: ChartBarIcon,
  },
  {
    name: 'Version history',
    description: 'A renewed certificate replaces the old one in its slot; the previous versions stay on file.',
    icon: ClockIcon,
  },
];

export function Features() {
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-20 py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold text-blue-600">Features</p>
          <h2 id="features-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Compliance that keeps itself up to date
          </h2>
          <p className="mt-4 text-slate-600">Spend minutes, not afternoons, making sure every vendor is covered.</p>
        </div>
        <dl className="mt-12 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ name, description, icon: Icon }) => (
            <div key={name} className="relative pl-14">
              <dt className="font-semibold text-slate-900">
                <span className="absolute top-0 left-0 flex size-10 items-center justify-center rounded-lg bg-blue-600 text-white shadow-sm">
                  <Icon aria-hidden className="size-6" />
                </span>
                {name}
              </dt>
              <dd className="mt-2 text-sm text-slate-600">{description}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
