import {
  ArrowUpTrayIcon,
  BuildingStorefrontIcon,
  DocumentTextIcon,
  EyeIcon,
  PencilSquareIcon,
  TrashIcon,
} from '@heroicons/react/20/solid';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { SlotDots } from '@/components/compliance/slot-dots';
import { StatusBadge } from '@/components/compliance/status-badge';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ExportCsvButton } from '@/components/ui/export-csv-button';
import { ActionMenu } from '@/components/ui/menu';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { usePaymentStatus } from '@/features/account/api/get-payment-status';
import { AddVendorButton } from '@/features/account/components/add-vendor-button';
import { LimitBanner } from '@/features/account/components/limit-banner';
import { statusLabel } from '@/lib/domain/documents';
import { filterVendors, type VendorStatusFilter } from '@/lib/domain/vendors';
import { formatDate, formatServiceType } from '@/lib/format';
import { useRowSelection } from '@/lib/use-row-selection';
import type { Vendor } from '@/types/api';
import { useExportVendors } from '../api/export-vendors';
import { useVendors } from '../api/get-vendors';
import { DeleteVendorDialog } from '../components/delete-vendor-dialog';
import { ImportVendorsDialog } from '../components/import-vendors-dialog';
import { VendorBulkActions } from '../components/vendor-bulk-actions';
import { VendorCard } from '../components/vendor-card';
import { VendorFilters } from '../components/vendor-filters';

function VendorActions({ vendor, onDelete }: { vendor: Vendor; onDelete: (vendor: Vendor) => void }) {
  return (
    <ActionMenu
      label={`Actions for ${vendor.name}`}
      actions={[
        { label: 'View Details', icon: EyeIcon, to: `/vendors/${vendor.id}` },
        { label: 'Documents', icon: DocumentTextIcon, to: `/vendors/${vendor.id}/documents` },
        { label: 'Edit', icon: PencilSquareIcon, to: `/vendors/${vendor.id}/edit` },
        { label: 'Delete', icon: TrashIcon, onSelect: () => onDelete(vendor), danger: true },
      ]}
    />
  );
}

function vendorColumns(onDelete: (vendor: Vendor) => void): Column<Vendor>[] {
  return [
    {
      id: 'name',
      header: 'Vendor',
      sortValue: (v) => v.name,
      cell: (v) => (
        <div className="min-w-40">
          <Link to={`/vendors/${v.id}`} className="font-medium text-slate-900 hover:text-blue-600">
            {v.name}
          </Link>
          <p className="text-xs text-slate-500">{v.email}</p>
        </div>
      ),
    },
    {
      id: 'serviceType',
      header: 'Service Type',
      sortValue: (v) => formatServiceType(v.serviceType),
      cell: (v) => formatServiceType(v.serviceType),
    },
    {
      id: 'status',
      header: 'Status',
      sortValue: (v) => statusLabel(v.documentStatus),
      cell: (v) => <StatusBadge status={v.documentStatus} />,
    },
    { id: 'documents', header: 'Documents', sortValue: (v) => v.documentCount, cell: (v) => <SlotDots slots={v.slots} /> },
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
      cell: (v) => <VendorActions vendor={v} onDelete={onDelete} />,
    },
  ];
}

export function VendorsRoute() {
  const vendors = useVendors();
  const paymentStatus = usePaymentStatus();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<VendorStatusFilter>('all');
  const [toDelete, setToDelete] = useState<Vendor | null>(null);
  const columns = useMemo(() => vendorColumns(setToDelete), []);
  const rows = useMemo(() => filterVendors(vendors.data ?? [], search, status), [vendors.data, search, status]);
  const filtered = search.trim() !== '' || status !== 'all';
  const rowIds = useMemo(() => rows.map((v) => v.id), [rows]);
  const selection = useRowSelection(rowIds);
  const tableSelection = useMemo(
    () => ({ selected: selection.selected, onChange: selection.setSelected, rowLabel: (v: Vendor) => `Select ${v.name}` }),
    [selection.selected, selection.setSelected],
  );
  const exporter = useExportVendors();
  const [importing, setImporting] = useState(false);

  return (
    <>
      <PageHeader
        title="Vendors"
        description="Manage your vendor list and compliance status"
        action={
          <>
            <ExportCsvButton exporter={exporter} />
            <Button variant="outline" onClick={() => setImporting(true)}>
              <ArrowUpTrayIcon aria-hidden className="size-4" />
              Import CSV
            </Button>
            <AddVendorButton status={paymentStatus.data} />
          </>
        }
      />
      <LimitBanner status={paymentStatus.data} />
      <div className="space-y-4">
        <VendorFilters search={search} onSearchChange={setSearch} status={status} onStatusChange={setStatus} />
        {vendors.isPending ? (
          <LoadingBlock label="Loading vendors" />
        ) : vendors.isError ? (
          <QueryError error={vendors.error} onRetry={() => void vendors.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={BuildingStorefrontIcon}
            title="No vendors found"
            headingLevel={2}
            description={filtered ? 'Try changing your search or filter criteria' : 'Get started by adding your first vendor'}
            action={filtered ? undefined : <AddVendorButton status={paymentStatus.data} />}
          />
        ) : (
          <DataTable
            label="Vendors"
            data={rows}
            columns={columns}
            getRowId={(v) => v.id}
            cardsBelow={1280}
            renderCard={(v) => <VendorCard vendor={v} action={<VendorActions vendor={v} onDelete={setToDelete} />} />}
            selection={tableSelection}
          />
        )}
        <VendorBulkActions ids={selection.ids} vendors={rows} onClear={selection.clear} />
      </div>
      <DeleteVendorDialog vendor={toDelete} onClose={() => setToDelete(null)} />
      <ImportVendorsDialog open={importing} onClose={() => setImporting(false)} />
    </>
  );
}

export default VendorsRoute;
