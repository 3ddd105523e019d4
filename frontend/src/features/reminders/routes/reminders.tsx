import { BellAlertIcon } from '@heroicons/react/24/outline';
import { Link } from 'react-router';
import { StatusBadge } from '@/components/compliance/status-badge';
import { PageHeader } from '@/components/layouts/page-header';
import { Badge } from '@/components/ui/badge';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { documentTypeLabel, statusLabel } from '@/lib/domain/documents';
import { formatDate, formatDateTime } from '@/lib/format';
import type { Reminder } from '@/types/api';
import { useReminders } from '../api/get-reminders';

/** Sent (with when it went out) or Pending. */
function ReminderState({ reminder: r }: { reminder: Reminder }) {
  if (!r.sent) return <Badge color="blue">Pending</Badge>;
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <Badge color="green">Sent</Badge>
      {r.sentAt && <span className="text-xs whitespace-nowrap text-slate-500">{formatDateTime(r.sentAt)}</span>}
    </span>
  );
}

const columns: Column<Reminder>[] = [
  {
    id: 'vendor',
    header: 'Vendor',
    sortValue: (r) => r.document.vendor ?? '',
    cell: (r) => (
      <Link
        to={`/vendors/${r.document.vendorId}`}
        className="block max-w-48 min-w-28 font-medium text-slate-900 hover:text-blue-600"
      >
        {r.document.vendor ?? r.document.vendorId}
      </Link>
    ),
  },
  {
    id: 'document',
    header: 'Document',
    sortValue: (r) => documentTypeLabel(r.document.documentType),
    cell: (r) => (
      <div className="min-w-36">
        <p className="text-slate-900">{documentTypeLabel(r.document.documentType)}</p>
        <p className="max-w-44 truncate text-xs text-slate-500" title={r.document.fileName}>
          {r.document.fileName}
        </p>
      </div>
    ),
  },
  {
    id: 'expirationDate',
    header: 'Expiration Date',
    sortValue: (r) => r.document.expirationDate,
    cell: (r) => <span className="whitespace-nowrap">{formatDate(r.document.expirationDate)}</span>,
  },
  {
    id: 'reminderDate',
    header: 'Reminder Date',
    sortValue: (r) => r.reminderDate,
    cell: (r) => <span className="whitespace-nowrap">{formatDate(r.reminderDate)}</span>,
  },
  {
    id: 'status',
    header: 'Status',
    sortValue: (r) => statusLabel(r.document.status),
    cell: (r) => <StatusBadge status={r.document.status} />,
  },
  {
    id: 'sent',
    header: 'Reminder',
    sortValue: (r) => (r.sent ? 1 : 0),
    cell: (r) => <ReminderState reminder={r} />,
  },
];

/** A phone's row: which document, when it expires, when the reminder goes out. */
function ReminderCard({ reminder: r }: { reminder: Reminder }) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <Link to={`/vendors/${r.document.vendorId}`} className="font-medium break-words text-slate-900 hover:text-blue-600">
            {r.document.vendor ?? r.document.vendorId}
          </Link>
          <p className="truncate text-xs text-slate-500" title={r.document.fileName}>
            {documentTypeLabel(r.document.documentType)} · {r.document.fileName}
          </p>
        </div>
        <ReminderState reminder={r} />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-500">
        <span>
          Expires {formatDate(r.document.expirationDate)} · Reminder {formatDate(r.reminderDate)}
        </span>
        <StatusBadge status={r.document.status} />
      </div>
    </div>
  );
}

export function RemindersRoute() {
  const reminders = useReminders();
  return (
    <>
      <PageHeader title="Reminders" description="Expiration reminders for your vendors' documents" />
      {reminders.isPending ? (
        <LoadingBlock label="Loading reminders" />
      ) : reminders.isError ? (
        <QueryError error={reminders.error} onRetry={() => void reminders.refetch()} />
      ) : reminders.data.length === 0 ? (
        <EmptyState
          icon={BellAlertIcon}
          title="No reminders"
          headingLevel={2}
          description="Reminders are automatically created when you add documents with expiration dates"
        />
      ) : (
        <DataTable
          label="Reminders"
          data={reminders.data}
          columns={columns}
          getRowId={(r) => r.id}
          initialSort={{ id: 'reminderDate', direction: 'asc' }}
          cardsBelow={1280}
          renderCard={(r) => <ReminderCard reminder={r} />}
        />
      )}
    </>
  );
}

export default RemindersRoute;
