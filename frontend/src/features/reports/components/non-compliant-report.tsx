import { useState } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '@/components/compliance/status-badge';
import { DataTable, type Column } from '@/components/ui/data-table';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { Select, type SelectOption } from '@/components/ui/select';
import { SERVICE_TYPE_OPTIONS } from '@/lib/domain/service-types';
import { formatServiceType } from '@/lib/format';
import type { NonCompliantStatus, NonCompliantVendor } from '@/types/api';
import { NO_FILTERS, useNonCompliantReport, type NonCompliantFilters } from '../api/get-non-compliant-report';
import { NON_COMPLIANT_RANK, reasonText } from '../lib/report-data';
import { ReportExportButtons } from './export-csv-button';
import { ReportSection } from './report-section';

const STATUS_OPTIONS: SelectOption<NonCompliantStatus | ''>[] = [
  { value: '', label: 'All Statuses' },
  { value: 'expired', label: 'Expired' },
  { value: 'missing', label: 'Missing Documents' },
  { value: 'expiring_soon', label: 'Expiring Soon' },
];

const SERVICE_OPTIONS: SelectOption<string>[] = [{ value: '', label: 'All Service Types' }, ...SERVICE_TYPE_OPTIONS];

/**
 * Why: the document reasons, then the requirement gaps in the server's words, then the gaps
 * waived for now, each with who waived it, until when and why.
 */
function Reasons({ vendor }: { vendor: NonCompliantVendor }) {
  const { reasons, gaps = [], waived = [] } = vendor;
  if (reasons.length === 0 && gaps.length === 0 && waived.length === 0) return null;
  return (
    <ul className="list-disc space-y-0.5 pl-4 text-slate-600">
      {reasons.map((reason) => (
        <li key={reason}>{reasonText(reason)}</li>
      ))}
      {gaps.map((gap) => (
        <li key={gap} className="text-amber-800" data-testid="report-gap">
          {gap}
        </li>
      ))}
      {waived.map((gap) => (
        <li key={gap} className="text-slate-500" data-testid="report-waived-gap">
          {gap}
        </li>
      ))}
    </ul>
  );
}

function VendorLink({ vendor }: { vendor: NonCompliantVendor }) {
  return (
    <Link to={`/vendors/${vendor.id}`} className="font-medium text-blue-700 hover:underline">
      {vendor.name}
    </Link>
  );
}

const columns: Column<NonCompliantVendor>[] = [
  { id: 'name', header: 'Vendor', sortValue: (v) => v.name, cell: (v) => <VendorLink vendor={v} /> },
  {
    id: 'serviceType',
    header: 'Service Type',
    cell: (v) => <span className="whitespace-nowrap">{formatServiceType(v.serviceType)}</span>,
  },
  {
    id: 'status',
    header: 'Status',
    sortValue: (v) => NON_COMPLIANT_RANK[v.status],
    cell: (v) => <StatusBadge status={v.status} />,
  },
  { id: 'reasons', header: 'Reasons', cell: (v) => <Reasons vendor={v} />, className: 'min-w-56' },
];

function VendorCard({ vendor }: { vendor: NonCompliantVendor }) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <VendorLink vendor={vendor} />
          <p className="text-xs text-slate-500">{formatServiceType(vendor.serviceType)}</p>
        </div>
        <StatusBadge status={vendor.status} />
      </div>
      <Reasons vendor={vendor} />
    </div>
  );
}

/** Vendors that are not compliant, why, filtered by the server and sorted here. */
export function NonCompliantReport() {
  const [filters, setFilters] = useState<NonCompliantFilters>(NO_FILTERS);
  const report = useNonCompliantReport(filters);
  const filtered = filters.status !== '' || filters.serviceType !== '';

  return (
    <ReportSection
      title="Non-Compliant Vendors"
      description="Vendors with missing, expired or soon-expiring documents"
      actions={<ReportExportButtons report="non-compliant" params={filters} />}
    >
      <div className="mb-4 grid gap-3 sm:grid-cols-2 print:hidden">
        <Select
          label="Service type"
          value={filters.serviceType}
          onChange={(serviceType) => setFilters((f) => ({ ...f, serviceType }))}
          options={SERVICE_OPTIONS}
        />
        <Select
          label="Status"
          value={filters.status}
          onChange={(status) => setFilters((f) => ({ ...f, status }))}
          options={STATUS_OPTIONS}
        />
      </div>
      {report.isPending ? (
        <LoadingBlock label="Loading non-compliant vendors" />
      ) : report.isError ? (
        <QueryError error={report.error} onRetry={() => void report.refetch()} />
      ) : (
        <DataTable
          label="Non-compliant vendors"
          caption={`Non-compliant vendors${filtered ? ' (filtered)' : ''}: ${report.data.length}`}
          data={report.data}
          columns={columns}
          getRowId={(v) => v.id}
          pageSize={25}
          initialSort={{ id: 'status', direction: 'asc' }}
          emptyMessage={filtered ? 'No vendors match these filters.' : 'Every vendor is compliant.'}
          renderCard={(v) => <VendorCard vendor={v} />}
        />
      )}
    </ReportSection>
  );
}
