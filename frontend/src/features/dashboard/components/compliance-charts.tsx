import { useMemo, type ReactNode } from 'react';
import { BarChart, DonutChart } from '@/components/ui/charts';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { useDashboardStats } from '../api/get-dashboard-stats';
import { documentStatusCounts, expirationBuckets } from '../lib/chart-data';

const COLORS = { current: '#10b981', expiring_soon: '#f59e0b', expired: '#ef4444', missing: '#94a3b8' } as const;
const NO_COUNTS = { current: 0, expiring_soon: 0, expired: 0, missing: 0 };

/** The two charts read the server's figures (GET /api/dashboard/stats, shared with the stat cards), never the lists. */
export function ComplianceCharts() {
  const stats = useDashboardStats();
  const counts = useMemo(() => (stats.data ? documentStatusCounts(stats.data) : NO_COUNTS), [stats.data]);
  const buckets = useMemo(() => (stats.data ? expirationBuckets(stats.data) : []), [stats.data]);
  const upcoming = buckets.reduce((sum, b) => sum + b.count, 0);

  const body = (content: ReactNode) =>
    stats.isPending ? (
      <LoadingBlock label="Loading documents" />
    ) : stats.isError ? (
      <QueryError error={stats.error} onRetry={() => void stats.refetch()} />
    ) : (
      content
    );

  return (
    <>
      <Card>
        <CardHeader title="Documents by Status" description="Current documents, and requested ones still missing" />
        <div className="p-5">
          {body(
            <DonutChart
              label="Documents by status"
              segments={[
                { label: 'Current', value: counts.current, color: COLORS.current },
                { label: 'Expiring Soon', value: counts.expiring_soon, color: COLORS.expiring_soon },
                { label: 'Expired', value: counts.expired, color: COLORS.expired },
                { label: 'Missing', value: counts.missing, color: COLORS.missing },
              ]}
            />,
          )}
        </div>
      </Card>
      <Card>
        <CardHeader
          title="Upcoming Expirations"
          description={`${upcoming} ${upcoming === 1 ? 'document expires' : 'documents expire'} in the next 90 days`}
        />
        <div className="p-5">
          {body(
            <BarChart
              label="Expirations over the next 90 days"
              bars={buckets.map((b, i) => ({ label: b.label, value: b.count, color: i < 2 ? COLORS.expiring_soon : '#3b82f6' }))}
            />,
          )}
        </div>
      </Card>
    </>
  );
}
