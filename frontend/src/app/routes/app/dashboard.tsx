import { ShieldCheckIcon } from '@heroicons/react/20/solid';
import { lazy, Suspense } from 'react';
import { PageHeader } from '@/components/layouts/page-header';
import { AddVendorButton } from '@/components/plan/add-vendor-button';
import { LimitBanner } from '@/components/plan/limit-banner';
import { UpgradeCard } from '@/components/plan/upgrade-card';
import { ButtonLink } from '@/components/ui/button';
import { LoadingBlock } from '@/components/ui/query-state';
import { useDashboardStats } from '@/features/dashboard/api/get-dashboard-stats';
import { StatsCards } from '@/features/dashboard/components/stats-cards';
import { afterPaint } from '@/lib/after-paint';
import { usePaymentStatus } from '@/lib/api/get-payment-status';
import { useUser } from '@/lib/session';

/**
 * The table, the charts and the activity: their code (the table's filters bring Headless UI's
 * listbox) is asked for once the top of the page is on screen, so that it does not hold up the
 * top. Nothing is drawn below them: their arrival moves nothing that is on screen.
 */
const DashboardDetails = lazy(() => afterPaint().then(() => import('./dashboard/details')));

export function DashboardRoute() {
  const user = useUser();
  const stats = useDashboardStats();
  const paymentStatus = usePaymentStatus();
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="View and manage vendor compliance documents"
        action={
          <>
            {user?.role === 'admin' ? (
              <ButtonLink to="/admin" variant="outline">
                <ShieldCheckIcon aria-hidden className="size-5" />
                Admin
              </ButtonLink>
            ) : null}
            <AddVendorButton status={paymentStatus.data} />
          </>
        }
      />
      <LimitBanner status={paymentStatus.data} upgrade={false} />
      <UpgradeCard status={paymentStatus.data} />
      <StatsCards stats={stats.data} />
      <Suspense fallback={<LoadingBlock label="Loading vendors" />}>
        <DashboardDetails />
      </Suspense>
    </>
  );
}

export default DashboardRoute;
