import { Link } from 'react-router';
import { DataTable, type Column } from '@/components/ui/data-table';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { formatDate } from '@/lib/format';
import type { ResponsivenessRow } from '@/types/api';
import { useResponsivenessReport } from '../api/get-responsiveness-report';
import { ReportExportButtons } from './export-csv-button';
import { ReportSection } from './report-section';

const NOT_YET = 'Not yet';

function daysText(days: number | null | undefined): string {
  if (days == null) return NOT_YET;
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

const rowId = (r: ResponsivenessRow) => `${r.vendorId}:${r.documentLabel}:${r.requestedAt}`;

const columns: Column<ResponsivenessRow>[] = [
  {
    id: 'vendor',
    header: 'Vendor',
    sortValue: (r) => r.vendorName,
    cell: (r) => (
      <Link to={`/vendors/${r.vendorId}`} className="font-medium text-blue-700 hover:underline">
        {r.vendorName}
      </Link>
    ),
  },
  { id: 'document', header: 'Document', sortValue: (r) => r.documentLabel, cell: (r) => r.documentLabel },
  {
    id: 'requestedAt',
    header: 'Requested',
    sortValue: (r) => r.requestedAt,
    cell: (r) => <span className="whitespace-nowrap">{formatDate(r.requestedAt)}</span>,
  },
  {
    id: 'uploadedAt',
    header: 'Uploaded',
    sortValue: (r) => r.uploadedAt,
    cell: (r) => <span className="whitespace-nowrap">{r.uploadedAt ? formatDate(r.uploadedAt) : NOT_YET}</span>,
  },
  {
    id: 'daysToUpload',
    header: 'Days to Upload',
    sortValue: (r) => r.daysToUpload,
    cell: (r) => <span className="whitespace-nowrap tabular-nums">{daysText(r.daysToUpload)}</span>,
  },
];

function RowCard({ row }: { row: ResponsivenessRow }) {
  return (
    <div className="space-y-1">
      <div className="flex items-start justify-between gap-3">
        <Link to={`/vendors/${row.vendorId}`} className="font-medium text-blue-700 hover:underline">
          {row.vendorName}
        </Link>
        <span className="text-xs whitespace-nowrap text-slate-600">{daysText(row.daysToUpload)}</span>
      </div>
      <p className="text-xs text-slate-500">
        {row.documentLabel} · requested {formatDate(row.requestedAt)} · uploaded{' '}
        {row.uploadedAt ? formatDate(row.uploadedAt) : NOT_YET.toLowerCase()}
      </p>
    </div>
  );
}

/** How long vendors take to upload what was asked of them. */
export function ResponsivenessReport() {
  const report = useResponsivenessReport();
  const answered = report.data?.filter((r) => r.daysToUpload !== null) ?? [];
  const average = answered.length > 0 ? answered.reduce((sum, r) => sum + (r.daysToUpload ?? 0), 0) / answered.length : null;

  return (
    <ReportSection
      title="Vendor Responsiveness"
      description={
        average === null
          ? 'How quickly vendors upload requested documents'
          : `Requested documents arrive after ${Math.round(average * 10) / 10} days on average`
      }
      actions={<ReportExportButtons report="responsiveness" />}
    >
      {report.isPending ? (
        <LoadingBlock label="Loading vendor responsiveness" />
      ) : report.isError ? (
        <QueryError error={report.error} onRetry={() => void report.refetch()} />
      ) : (
        <DataTable
          label="Vendor responsiveness"
          caption="Document requests and how long each vendor took to upload"
          data={report.data}
          columns={columns}
          getRowId={rowId}
          pageSize={25}
          initialSort={{ id: 'requestedAt', direction: 'desc' }}
          emptyMessage="No document requests yet."
          renderCard={(r) => <RowCard row={r} />}
        />
      )}
    </ReportSection>
  );
}
