import { BuildingStorefrontIcon, CheckBadgeIcon, ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { StatCard } from '@/components/ui/stat-card';
import type { DashboardStats } from '@/types/api';

/**
 * Total Vendors, Compliant, Needs Attention (expiring, non-compliant or short of their
 * requirement set, each vendor once: the server counts it).
 */
export function StatsCards({ stats }: { stats: DashboardStats | undefined }) {
  const value = (n: number | undefined) => (stats ? n : '–');
  return (
    <div className="mb-6 grid gap-4 sm:grid-cols-3">
      <StatCard title="Total Vendors" value={value(stats?.totalVendors)} icon={BuildingStorefrontIcon} color="blue" />
      <StatCard title="Compliant" value={value(stats?.compliantVendors)} icon={CheckBadgeIcon} color="green" />
      <StatCard
        title="Needs Attention"
        value={value(stats?.vendorsNeedingAttention)}
        icon={ExclamationTriangleIcon}
        color="yellow"
      />
    </div>
  );
}
