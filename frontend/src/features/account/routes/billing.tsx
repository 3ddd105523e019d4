import { ArrowPathIcon, ExclamationTriangleIcon } from '@heroicons/react/20/solid';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ReminderEmailsSwitch, WeeklySummarySwitch } from '@/components/account/email-preferences';
import { PageHeader } from '@/components/layouts/page-header';
import { BILLING_OFF_TEXT, UpgradeButton } from '@/components/plan/upgrade-button';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { usePaymentStatus } from '@/lib/api/get-payment-status';
import { getPublicConfigQueryOptions, type PublicConfig } from '@/lib/api/get-public-config';
import { seatsText } from '@/lib/api/public-config';
import { formatDate } from '@/lib/format';
import type { PaymentStatus, Plan } from '@/types/api';
import { useBillingPermission } from '@/lib/permissions';
import { useOpenBillingPortal } from '../api/open-billing-portal';
import { TimeZoneCard } from '../components/time-zone-card';

const PLAN_NAMES: Record<Plan, string> = { free: 'Free', professional: 'Professional' };

/** '$29/month' from the public configuration, '$0' for a free plan; null when the server does not say. */
export function planPrice(config: PublicConfig | undefined, plan: Plan): string | null {
  const cents = config?.plans?.[plan]?.priceCents;
  if (cents === undefined || cents === null) return null;
  if (cents === 0) return '$0';
  const dollars = cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
  return `$${dollars}/month`;
}

/** 'Ends on …' wins over 'Renews on …': a cancelled subscription still has a period end. */
export function subscriptionText(status: Pick<PaymentStatus, 'renewsAt' | 'cancelAt'>): string | null {
  if (status.cancelAt) return `Ends on ${formatDate(status.cancelAt)}; your plan returns to Free`;
  if (status.renewsAt) return `Renews on ${formatDate(status.renewsAt)}`;
  return null;
}

/** Manage billing: opens the Stripe customer portal; pending until the browser leaves. */
function ManageBillingButton() {
  const portal = useOpenBillingPortal();
  const billing = useBillingPermission();
  const [redirecting, setRedirecting] = useState(false);
  const pending = portal.isPending || redirecting;

  function open() {
    portal.mutate(undefined, {
      onSuccess: (data) => {
        if (!data?.url) {
          toast({ title: 'Manage billing failed', description: 'No billing portal URL received from server', variant: 'error' });
          return;
        }
        setRedirecting(true);
        window.location.assign(data.url);
      },
      onError: (error) =>
        toast({
          title: 'Manage billing failed',
          description: errorMessage(error, 'Failed to open the billing portal'),
          variant: 'error',
        }),
    });
  }

  return (
    <Button
      variant="outline"
      onClick={open}
      disabled={pending || !billing.allowed}
      title={billing.reason}
      aria-busy={pending || undefined}
      className="w-full sm:w-auto"
    >
      {pending ? <ArrowPathIcon aria-hidden data-testid="portal-spinner" className="size-4 animate-spin" /> : null}
      Manage billing
    </Button>
  );
}

function PaymentProblem({ message }: { message: string }) {
  return (
    <div role="alert" className="flex gap-3 rounded-xl border border-red-200 bg-red-50 p-4">
      <ExclamationTriangleIcon aria-hidden className="size-5 shrink-0 text-red-500" />
      <div>
        <p className="text-sm font-semibold text-red-900">Payment problem</p>
        <p className="mt-1 text-sm text-red-800">{message}</p>
      </div>
    </div>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="mt-1 text-sm font-medium text-slate-900">{children}</dd>
    </div>
  );
}

function BillingDetails({ status }: { status: PaymentStatus }) {
  const config = useQuery(getPublicConfigQueryOptions());
  const price = planPrice(config.data, status.plan);
  const seats = config.data?.plans?.[status.plan]?.seats;
  const subscription = subscriptionText(status);
  const free = status.plan === 'free';
  // A Free organization that never paid has no Stripe customer: the portal would only refuse.
  const hasBillingAccount = !free || Boolean(status.renewsAt || status.cancelAt || status.paymentProblem);

  return (
    <div className="max-w-3xl space-y-6">
      {status.paymentProblem ? <PaymentProblem message={status.paymentProblem} /> : null}
      <Card>
        <CardHeader title="Current plan" action={<Badge color={free ? 'gray' : 'blue'}>{PLAN_NAMES[status.plan]}</Badge>} />
        <CardBody className="space-y-6">
          <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Detail label="Plan">{PLAN_NAMES[status.plan]}</Detail>
            {price ? <Detail label="Price">{price}</Detail> : null}
            <Detail label="Vendors">
              {status.currentVendorCount} of {status.vendorLimit}
            </Detail>
            {seats ? <Detail label="People">{seatsText(seats)}</Detail> : null}
          </dl>
          {subscription ? (
            <p data-testid="subscription-period" className="text-sm text-slate-700">
              {subscription}
            </p>
          ) : null}
          {status.billingEnabled ? (
            <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              {free ? <UpgradeButton status={status} className="w-full sm:w-auto" /> : null}
              {hasBillingAccount ? <ManageBillingButton /> : null}
            </div>
          ) : (
            <p data-testid="billing-off" className="text-sm text-slate-700">
              {BILLING_OFF_TEXT}
            </p>
          )}
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Team"
          description="The people who sign in to your organization, their roles and invitations"
          action={
            <ButtonLink to="/account/team" variant="outline" size="sm">
              Manage team
            </ButtonLink>
          }
        />
      </Card>
      <Card>
        <CardHeader title="Email preferences" description="Yours alone: everyone on the team sets their own" />
        <CardBody className="space-y-4">
          <WeeklySummarySwitch />
          <ReminderEmailsSwitch className="border-t border-slate-100 pt-4" />
        </CardBody>
      </Card>
      <TimeZoneCard />
    </div>
  );
}

export function BillingRoute() {
  const status = usePaymentStatus();
  return (
    <>
      <PageHeader title="Billing" description="Your plan, its renewal and your payments" />
      {status.isPending ? (
        <LoadingBlock label="Loading billing" />
      ) : status.isError ? (
        <QueryError error={status.error} onRetry={() => void status.refetch()} />
      ) : (
        <BillingDetails status={status.data} />
      )}
    </>
  );
}

export default BillingRoute;
