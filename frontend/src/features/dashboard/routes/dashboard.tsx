import { ShieldCheckIcon } from '@heroicons/react/20/solid';
import { PageHeader } from '@/components/layouts/page-header';
import { ButtonLink } from '@/components/ui/button';
import { usePaymentStatus } from '@/features/account/api/get-payment-status';
import { AddVendorButton } from '@/features/account/components/add-vendor-button';
import { LimitBanner } from '@/features/account/components/limit-banner';
import { UpgradeCard } from '@/features/account/components/upgrade-card';
import { useUser } from '@/lib/session';
import { useDashboardStats } from '../api/get-dashboard-stats';
import { ComplianceCharts } from '../components/compliance-charts';
import { RecentActivity } from '../components/recent-activity';
import { StatsCards } from '../components/stats-cards';
import { VendorComplianceTable } from '../components/vendor-compliance-table';

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
      <div className="mb-6 min-w-0">
        <VendorComplianceTable />
      </div>
      <div className="grid gap-6 lg:grid-cols-2 2xl:grid-cols-3">
        <ComplianceCharts />
        {/* Two charts fill the two-column row; the activity list takes the next row whole. */}
        <RecentActivity className="lg:col-span-2 2xl:col-span-1" />
      </div>
    </>
  );
}

export default DashboardRoute;
