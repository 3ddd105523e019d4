import { Link } from 'react-router';
import { SlotDots, SlotLegend } from '@/components/compliance/slot-dots';
import { GapsBadge } from '@/components/compliance/gaps-badge';
import { StatusBadge } from '@/components/compliance/status-badge';
import { Card, CardHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { formatDate, formatServiceType } from '@/lib/format';
import type { Vendor } from '@/types/api';
import { useVendorList } from '../hooks/use-vendor-list';
import { VendorCard } from './vendor-card';
import { VendorFilters } from './vendor-filters';

const columns: Column<Vendor>[] = [
  {
    id: 'name',
    header: 'Vendor',
    sortKey: 'name',
    cell: (v) => (
      <div className="min-w-40">
        <Link to={`/vendors/${v.id}`} className="font-medium text-slate-900 hover:text-blue-600">
          {v.name}
        </Link>
        <GapsBadge vendor={v} />
        <p className="text-xs text-slate-500">{formatServiceType(v.serviceType)}</p>
      </div>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    sortKey: 'status',
    cell: (v) => <StatusBadge status={v.documentStatus} />,
  },
  { id: 'documents', header: 'Documents', cell: (v) => <SlotDots slots={v.slots} /> },
  {
    id: 'updated',
    header: 'Last Updated',
    sortKey: 'updatedAt',
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
  const { list, vendors, paging } = useVendorList(columns);

  return (
    <Card>
      <CardHeader title="Vendor Compliance Status" action={<SlotLegend />} />
      <div className="space-y-4 p-5">
        <VendorFilters
          search={list.search}
          onSearchChange={list.setSearch}
          status={list.filter}
          onStatusChange={list.setFilter}
        />
        {vendors.isPending ? (
          <LoadingBlock label="Loading vendors" />
        ) : vendors.isError ? (
          <QueryError error={vendors.error} onRetry={() => void vendors.refetch()} />
        ) : (
          <DataTable
            label="Vendor Compliance Status"
            data={vendors.data.items}
            columns={columns}
            getRowId={(v) => v.id}
            cardsBelow={1280}
            renderCard={(v) => <VendorCard vendor={v} />}
            paging={paging}
          />
        )}
      </div>
    </Card>
  );
}
