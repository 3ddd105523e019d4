import { useMemo, type ReactNode } from 'react';
import { BarChart, DonutChart } from '@/components/ui/charts';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { useDocuments } from '@/features/documents/api/get-documents';
import { useVendors } from '@/features/vendors/api/get-vendors';
import { documentStatusCounts, expirationBuckets } from '../lib/chart-data';

const COLORS = { current: '#10b981', expiring_soon: '#f59e0b', expired: '#ef4444', missing: '#94a3b8' } as const;

export function ComplianceCharts() {
  const documents = useDocuments();
  const vendors = useVendors();
  const counts = useMemo(() => documentStatusCounts(documents.data ?? [], vendors.data ?? []), [documents.data, vendors.data]);
  const buckets = useMemo(() => expirationBuckets(documents.data ?? []), [documents.data]);
  const upcoming = buckets.reduce((sum, b) => sum + b.count, 0);

  const body = (content: ReactNode) =>
    documents.isPending ? (
      <LoadingBlock label="Loading documents" />
    ) : documents.isError ? (
      <QueryError error={documents.error} onRetry={() => void documents.refetch()} />
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
