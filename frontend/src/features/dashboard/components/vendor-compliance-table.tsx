import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { SlotDots, SlotLegend } from '@/components/compliance/slot-dots';
import { StatusBadge } from '@/components/compliance/status-badge';
import { Card, CardHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { useVendors } from '@/features/vendors/api/get-vendors';
import { VendorCard } from '@/features/vendors/components/vendor-card';
import { VendorFilters } from '@/features/vendors/components/vendor-filters';
import { statusLabel } from '@/lib/domain/documents';
import { filterVendors, type VendorStatusFilter } from '@/lib/domain/vendors';
import { formatDate, formatServiceType } from '@/lib/format';
import type { Vendor } from '@/types/api';

const columns: Column<Vendor>[] = [
  {
    id: 'name',
    header: 'Vendor',
    sortValue: (v) => v.name,
    cell: (v) => (
      <div className="min-w-40">
        <Link to={`/vendors/${v.id}`} className="font-medium text-slate-900 hover:text-blue-600">
          {v.name}
        </Link>
        <p className="text-xs text-slate-500">{formatServiceType(v.serviceType)}</p>
      </div>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    sortValue: (v) => statusLabel(v.documentStatus),
    cell: (v) => <StatusBadge status={v.documentStatus} />,
  },
  { id: 'documents', header: 'Documents', cell: (v) => <SlotDots slots={v.slots} /> },
  {
    id: 'updated',
    header: 'Last Updated',
    sortValue: (v) => v.updatedAt,
    cell: (v) => <span className="whitespace-nowrap">{formatDate(v.updatedAt)}</span>,
  },
  {
    id: 'actions',
    header: <span className="sr-only">Actions</span>,
    className: 'text-right',
    cell: (v) => (
      <Link
        to={`/vendors/${v.id}`}
        className="text-sm font-medium text-blue-600 hover:text-blue-700"
        aria-label={`View ${v.name}`}
      >
        View
      </Link>
    ),
  },
];

export function VendorComplianceTable() {
  const vendors = useVendors();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<VendorStatusFilter>('all');
  const rows = useMemo(() => filterVendors(vendors.data ?? [], search, status), [vendors.data, search, status]);

  return (
    <Card>
      <CardHeader title="Vendor Compliance Status" action={<SlotLegend />} />
      <div className="space-y-4 p-5">
        <VendorFilters search={search} onSearchChange={setSearch} status={status} onStatusChange={setStatus} />
        {vendors.isPending ? (
          <LoadingBlock label="Loading vendors" />
        ) : vendors.isError ? (
          <QueryError error={vendors.error} onRetry={() => void vendors.refetch()} />
        ) : (
          <DataTable
            label="Vendor Compliance Status"
            data={rows}
            columns={columns}
            getRowId={(v) => v.id}
            cardsBelow={1280}
            renderCard={(v) => <VendorCard vendor={v} />}
          />
        )}
      </div>
    </Card>
  );
}
