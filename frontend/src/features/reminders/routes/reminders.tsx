import { BellAlertIcon } from '@heroicons/react/24/outline';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '@/components/compliance/status-badge';
import { PageHeader } from '@/components/layouts/page-header';
import { Badge } from '@/components/ui/badge';
import { DataTable, sortParam, type Column, type SortState } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { TABLE_PAGE_SIZE } from '@/config';
import { documentTypeLabel } from '@/lib/domain/documents';
import { formatDate, formatDateTime } from '@/lib/format';
import { pagingOf, useListControls } from '@/lib/use-list-controls';
import type { Reminder } from '@/types/api';
import { useReminderPage, type ReminderPageParams } from '../api/get-reminders';

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

/** Each column sorts on the server by its key (api/get-reminders, ReminderSortKey). */
const columns: Column<Reminder>[] = [
  {
    id: 'vendor',
    header: 'Vendor',
    // The vendor's name, whatever its case.
    sortKey: 'vendor',
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
    // By the stored code (coi, other, sales_tax, vendor_agreement, w9), not by the label shown.
    sortKey: 'documentType',
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
    // None last either way.
    sortKey: 'expirationDate',
    cell: (r) => <span className="whitespace-nowrap">{formatDate(r.document.expirationDate)}</span>,
  },
  {
    id: 'reminderDate',
    header: 'Reminder Date',
    sortKey: 'reminderDate',
    cell: (r) => <span className="whitespace-nowrap">{formatDate(r.reminderDate)}</span>,
  },
  {
    id: 'status',
    header: 'Status',
    // By severity: current, expiring soon, expired.
    sortKey: 'status',
    cell: (r) => <StatusBadge status={r.document.status} />,
  },
  {
    id: 'sent',
    header: 'Reminder',
    // Pending first.
    sortKey: 'sent',
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

/** Soonest first until a header is clicked: the first page is FIRST_REMINDER_PAGE, as prefetched. */
const INITIAL_SORT: SortState = { id: 'reminderDate', direction: 'asc' };

/** The reminders, paged and sorted on the server: 5 a page, soonest first. */
export function RemindersRoute() {
  const list = useListControls('all', INITIAL_SORT);
  const { sort, offset } = list;
  const params = useMemo<ReminderPageParams>(
    () => ({ limit: TABLE_PAGE_SIZE, offset, sort: sortParam(columns, sort) }),
    [sort, offset],
  );
  const reminders = useReminderPage(params);
  const { paging } = pagingOf(list, reminders);
  return (
    <>
      <PageHeader title="Reminders" description="Expiration reminders for your vendors' documents" />
      {reminders.isPending ? (
        <LoadingBlock label="Loading reminders" />
      ) : reminders.isError ? (
        <QueryError error={reminders.error} onRetry={() => void reminders.refetch()} />
      ) : reminders.data.total === 0 ? (
        <EmptyState
          icon={BellAlertIcon}
          title="No reminders"
          headingLevel={2}
          description="Reminders are automatically created when you add documents with expiration dates"
        />
      ) : (
        <DataTable
          label="Reminders"
          data={reminders.data.items}
          columns={columns}
          getRowId={(r) => r.id}
          cardsBelow={1280}
          renderCard={(r) => <ReminderCard reminder={r} />}
          paging={paging}
        />
      )}
    </>
  );
}

export default RemindersRoute;
