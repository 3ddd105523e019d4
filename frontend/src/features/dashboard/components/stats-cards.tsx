import { BuildingStorefrontIcon, CheckBadgeIcon, ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { StatCard } from '@/components/ui/stat-card';
import type { DashboardStats } from '@/types/api';

/** Total Vendors, Compliant, Needs Attention (expiring plus non-compliant). */
export function StatsCards({ stats }: { stats: DashboardStats | undefined }) {
  const value = (n: number | undefined) => (stats ? n : '–');
  return (
    <div className="mb-6 grid gap-4 sm:grid-cols-3">
      <StatCard title="Total Vendors" value={value(stats?.totalVendors)} icon={BuildingStorefrontIcon} color="blue" />
      <StatCard title="Compliant" value={value(stats?.compliantVendors)} icon={CheckBadgeIcon} color="green" />
      <StatCard
        title="Needs Attention"
        value={value(stats ? stats.expiringVendors + stats.nonCompliantVendors : undefined)}
        icon={ExclamationTriangleIcon}
        color="yellow"
      />
    </div>
  );
}
