import { LockClosedIcon } from '@heroicons/react/20/solid';
import { PageHeader } from '@/components/layouts/page-header';
import { canManageTeam } from '@/lib/permissions';
import { useUser } from '@/lib/session';
import { ApiKeysCard } from '../components/api-keys-card';
import { CalendarCard } from '../components/calendar-card';
import { WebhooksCard } from '../components/webhooks-card';

/** Said to a member or viewer who opens the page's address (the navigation hides it from them). */
export const INTEGRATIONS_REASON = 'Only admins and the owner of your team can manage integrations.';

/** API keys, webhooks and the calendar feed: admins and the owner. */
export function IntegrationsRoute() {
  const user = useUser();
  return (
    <>
      <PageHeader title="Integrations" description="Connect Vendorwatch to the other systems and calendars you use" />
      {canManageTeam(user) ? (
        <div className="max-w-4xl space-y-6">
          <ApiKeysCard />
          <WebhooksCard />
          <CalendarCard />
        </div>
      ) : (
        <div
          role="note"
          className="flex max-w-3xl gap-3 rounded-xl border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700"
        >
          <LockClosedIcon aria-hidden className="size-5 shrink-0 text-slate-500" />
          <p>{INTEGRATIONS_REASON}</p>
        </div>
      )}
    </>
  );
}

export default IntegrationsRoute;
