import {
  ArrowUpTrayIcon,
  BuildingStorefrontIcon,
  DocumentTextIcon,
  EyeIcon,
  PencilSquareIcon,
  TrashIcon,
} from '@heroicons/react/20/solid';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { SlotDots } from '@/components/compliance/slot-dots';
import { GapsBadge } from '@/components/compliance/gaps-badge';
import { StatusBadge } from '@/components/compliance/status-badge';
import { PageHeader } from '@/components/layouts/page-header';
import { AddVendorButton } from '@/components/plan/add-vendor-button';
import { LimitBanner } from '@/components/plan/limit-banner';
import { Button } from '@/components/ui/button';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { ExportCsvButton, ExportExcelButton } from '@/components/ui/export-csv-button';
import { ActionMenu } from '@/components/ui/menu';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { usePaymentStatus } from '@/lib/api/get-payment-status';
import { formatDate, formatServiceType } from '@/lib/format';
import { usePagedSelection } from '@/lib/use-paged-selection';
import type { Vendor } from '@/types/api';
import { useWritePermission } from '@/lib/permissions';
import { useExportVendors } from '../api/export-vendors';
import { getVendorPage } from '../api/get-vendors';
import { DeleteVendorDialog } from '../components/delete-vendor-dialog';
import { VendorBulkActions } from '../components/vendor-bulk-actions';
import { VendorCard } from '../components/vendor-card';
import { VendorFilters } from '../components/vendor-filters';
import { useVendorList } from '../hooks/use-vendor-list';

/** Loaded on the first click of Import CSV: the vendor list does not wait for it. */
const ImportVendorsDialog = lazy(() => import('../components/import-vendors-dialog'));

const vendorId = (v: Vendor) => v.id;

function VendorActions({ vendor, onDelete }: { vendor: Vendor; onDelete: (vendor: Vendor) => void }) {
  // A viewer is offered what they may do: look.
  const write = useWritePermission();
  return (
    <ActionMenu
      label={`Actions for ${vendor.name}`}
      actions={[
        { label: 'View Details', icon: EyeIcon, to: `/vendors/${vendor.id}` },
        { label: 'Documents', icon: DocumentTextIcon, to: `/vendors/${vendor.id}/documents` },
        ...(write.allowed
          ? [
              { label: 'Edit', icon: PencilSquareIcon, to: `/vendors/${vendor.id}/edit` },
              { label: 'Delete', icon: TrashIcon, onSelect: () => onDelete(vendor), danger: true },
            ]
          : []),
      ]}
    />
  );
}

function vendorColumns(onDelete: (vendor: Vendor) => void): Column<Vendor>[] {
  return [
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
          <p className="text-xs text-slate-500">{v.email}</p>
        </div>
      ),
    },
    {
      id: 'serviceType',
      header: 'Service Type',
      sortKey: 'serviceType',
      cell: (v) => formatServiceType(v.serviceType),
    },
    {
      id: 'status',
      header: 'Status',
      // By severity: current, expiring soon, expired, missing.
      sortKey: 'status',
      cell: (v) => <StatusBadge status={v.documentStatus} />,
    },
    { id: 'documents', header: 'Documents', sortKey: 'documentCount', cell: (v) => <SlotDots slots={v.slots} /> },
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
      cell: (v) => <VendorActions vendor={v} onDelete={onDelete} />,
    },
  ];
}

export function VendorsRoute() {
  const paymentStatus = usePaymentStatus();
  const [toDelete, setToDelete] = useState<Vendor | null>(null);
  const columns = useMemo(() => vendorColumns(setToDelete), []);
  const { list, params, vendors, paging, answered } = useVendorList(columns);
  const fetchMatching = useCallback(
    async (limit: number) => (await getVendorPage({ ...params, limit, offset: 0 })).items,
    [params],
  );
  const selection = usePagedSelection({
    getId: vendorId,
    scope: list.selectionScope,
    total: vendors.data?.total ?? 0,
    page: answered && { key: JSON.stringify(params), rows: answered.items },
    fetchMatching,
  });
  const tableSelection = useMemo(() => ({ ...selection.table, rowLabel: (v: Vendor) => `Select ${v.name}` }), [selection.table]);
  const exporter = useExportVendors();
  const excelExporter = useExportVendors('xlsx');
  const [importing, setImporting] = useState(false);
  const [importLoaded, setImportLoaded] = useState(false);
  const write = useWritePermission();

  return (
    <>
      <PageHeader
        title="Vendors"
        description="Manage your vendor list and compliance status"
        action={
          <>
            <ExportCsvButton exporter={exporter} />
            <ExportExcelButton exporter={excelExporter} />
            <Button
              variant="outline"
              onClick={() => {
                setImportLoaded(true);
                setImporting(true);
              }}
              disabled={!write.allowed}
              title={write.reason}
            >
              <ArrowUpTrayIcon aria-hidden className="size-4" />
              Import CSV
            </Button>
            <AddVendorButton status={paymentStatus.data} />
          </>
        }
      />
      <LimitBanner status={paymentStatus.data} />
      <div className="space-y-4">
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
        ) : vendors.data.total === 0 ? (
          <EmptyState
            icon={BuildingStorefrontIcon}
            title="No vendors found"
            headingLevel={2}
            description={
              list.filtered ? 'Try changing your search or filter criteria' : 'Get started by adding your first vendor'
            }
            action={list.filtered ? undefined : <AddVendorButton status={paymentStatus.data} />}
          />
        ) : (
          <DataTable
            label="Vendors"
            data={vendors.data.items}
            columns={columns}
            getRowId={(v) => v.id}
            cardsBelow={1280}
            renderCard={(v) => <VendorCard vendor={v} action={<VendorActions vendor={v} onDelete={setToDelete} />} />}
            selection={tableSelection}
            paging={paging}
          />
        )}
        <VendorBulkActions ids={selection.ids} count={selection.count} vendors={selection.rows} onClear={selection.clear} />
      </div>
      <DeleteVendorDialog vendor={toDelete} onClose={() => setToDelete(null)} />
      {importLoaded ? (
        <Suspense fallback={null}>
          <ImportVendorsDialog open={importing} onClose={() => setImporting(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

export default VendorsRoute;
