import { ArrowDownTrayIcon, EyeIcon, PencilSquareIcon, TrashIcon } from '@heroicons/react/20/solid';
import { ShieldCheckIcon } from '@heroicons/react/24/outline';
import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '@/components/compliance/status-badge';
import { buttonClasses, Button } from '@/components/ui/button';
import { DataTable, type Column, type ServerPaging, type SortState, type TableSelection } from '@/components/ui/data-table';
import { coiTypeLabel, documentTypeLabel, statusLabel } from '@/lib/domain/documents';
import { formatDate } from '@/lib/format';
import type { VendorDocument } from '@/types/api';
import type { DocumentSortKey } from '../api/get-documents';
import { useDownload } from '../hooks/use-download';
import { DocumentTypeCell } from './document-type-cell';

type DocumentsTableProps = {
  documents: readonly VendorDocument[];
  label: string;
  showVendor?: boolean;
  onEdit?: (doc: VendorDocument) => void;
  /** The Coverage action of a COI (what its certificate shows) appears only when a handler is supplied. */
  onCoverage?: (doc: VendorDocument) => void;
  /** The Delete action appears only when a handler is supplied. */
  onDelete?: (doc: VendorDocument) => void;
  emptyMessage?: string;
  /** Row checkboxes for the bulk actions. */
  selection?: Omit<TableSelection<VendorDocument>, 'rowLabel'>;
  /** The server pages and sorts (`documents` is one page); see documentSortParam. */
  paging?: ServerPaging;
};

/** The server's sort key of each sortable column, by column id. */
const SORT_KEYS: Record<string, DocumentSortKey> = {
  fileName: 'fileName',
  documentType: 'documentType',
  uploadedAt: 'uploadedAt',
  expirationDate: 'expirationDate',
  status: 'status',
};

/** The server's `sort` parameter for the table's sort state (none: the server's default order). */
export function documentSortParam(sort: SortState): string | undefined {
  const key = sort ? SORT_KEYS[sort.id] : undefined;
  if (!sort || !key) return undefined;
  return sort.direction === 'desc' ? `-${key}` : key;
}

function Actions({
  doc,
  onEdit,
  onCoverage,
  onDelete,
  download,
  downloading,
}: {
  doc: VendorDocument;
  onEdit?: (doc: VendorDocument) => void;
  onCoverage?: (doc: VendorDocument) => void;
  onDelete?: (doc: VendorDocument) => void;
  download: (id: string) => void;
  downloading: boolean;
}) {
  const icon = buttonClasses('ghost', 'icon-sm');
  return (
    <div className="flex items-center justify-end gap-1">
      <a
        href={`/view-document/${doc.id}`}
        target="_blank"
        rel="noopener noreferrer"
        className={icon}
        aria-label="View"
        title="View"
      >
        <EyeIcon aria-hidden className="size-4" />
      </a>
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label="Download"
        title="Download"
        disabled={downloading}
        onClick={() => download(doc.id)}
      >
        <ArrowDownTrayIcon aria-hidden className="size-4" />
      </Button>
      {onEdit ? (
        <Button variant="ghost" size="icon-sm" aria-label="Edit" title="Edit" onClick={() => onEdit(doc)}>
          <PencilSquareIcon aria-hidden className="size-4" />
        </Button>
      ) : null}
      {onCoverage && doc.documentType === 'coi' ? (
        <Button variant="ghost" size="icon-sm" aria-label="Coverage" title="Coverage" onClick={() => onCoverage(doc)}>
          <ShieldCheckIcon aria-hidden className="size-4" />
        </Button>
      ) : null}
      {onDelete ? (
        <Button
          variant="ghost"
          size="icon-sm"
          className="text-red-600! hover:bg-red-50! hover:text-red-700!"
          aria-label="Delete"
          title="Delete"
          onClick={() => onDelete(doc)}
        >
          <TrashIcon aria-hidden className="size-4" />
        </Button>
      ) : null}
    </div>
  );
}

/** The file name, with the vendor (on lists across vendors) and the version under it. */
function FileNameCell({ doc, showVendor }: { doc: VendorDocument; showVendor: boolean }) {
  return (
    <div className="max-w-44 min-w-0 sm:max-w-48">
      <span className="block truncate font-medium text-slate-900" title={doc.fileName}>
        {doc.fileName}
      </span>
      {showVendor ? (
        <Link to={`/vendors/${doc.vendorId}`} className="block truncate text-xs text-slate-500 hover:text-blue-600">
          {doc.vendor ?? doc.vendorId}
        </Link>
      ) : null}
      {(doc.version ?? 1) > 1 ? <span className="block text-xs text-slate-500">Version {doc.version}</span> : null}
    </div>
  );
}

/** A phone's view of one document: what it is, its state, and the same actions. */
function DocumentCard({ doc, showVendor, actions }: { doc: VendorDocument; showVendor: boolean; actions: ReactNode }) {
  const coi = coiTypeLabel(doc);
  return (
    <div className="space-y-2">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-slate-900">
            {documentTypeLabel(doc.documentType)}
            {coi ? <span className="text-slate-500"> · {coi}</span> : null}
          </p>
          <p className="truncate text-xs text-slate-500" title={doc.fileName}>
            {doc.fileName}
            {(doc.version ?? 1) > 1 ? ` · Version ${doc.version}` : ''}
          </p>
          {showVendor ? (
            <Link to={`/vendors/${doc.vendorId}`} className="block truncate text-xs font-medium text-blue-600">
              {doc.vendor ?? doc.vendorId}
            </Link>
          ) : null}
        </div>
        <StatusBadge status={doc.status} />
      </div>
      <div className="flex items-end justify-between gap-3">
        <p className="min-w-0 text-xs text-slate-500">
          <span className="block whitespace-nowrap">Uploaded {formatDate(doc.uploadedAt)}</span>
          <span className="block whitespace-nowrap">Expires {formatDate(doc.expirationDate)}</span>
        </p>
        <div className="-mr-1 shrink-0">{actions}</div>
      </div>
    </div>
  );
}

/** File Name, Document Type, Uploaded, Expiration, Status and the row actions. */
export function DocumentsTable({
  documents,
  label,
  showVendor = false,
  onEdit,
  onCoverage,
  onDelete,
  emptyMessage,
  selection,
  paging,
}: DocumentsTableProps) {
  const { start, pendingId } = useDownload();
  const tableSelection = useMemo<TableSelection<VendorDocument> | undefined>(
    () =>
      selection && {
        ...selection,
        // Lists across vendors can hold two files of the same name: say whose.
        rowLabel: (d) => (showVendor ? `Select ${d.fileName} (${d.vendor ?? d.vendorId})` : `Select ${d.fileName}`),
      },
    [selection, showVendor],
  );
  const columns = useMemo(() => {
    const cols: Column<VendorDocument>[] = [
      {
        id: 'fileName',
        header: 'File Name',
        sortValue: (d) => d.fileName,
        sortKey: SORT_KEYS.fileName,
        cell: (d) => <FileNameCell doc={d} showVendor={showVendor} />,
      },
      {
        id: 'documentType',
        header: 'Document Type',
        sortValue: (d) => documentTypeLabel(d.documentType),
        sortKey: SORT_KEYS.documentType,
        cell: (d) => <DocumentTypeCell doc={d} />,
      },
    ];
    cols.push(
      {
        id: 'uploadedAt',
        header: 'Uploaded',
        sortValue: (d) => d.uploadedAt,
        sortKey: SORT_KEYS.uploadedAt,
        cell: (d) => <span className="whitespace-nowrap">{formatDate(d.uploadedAt)}</span>,
      },
      {
        id: 'expirationDate',
        header: 'Expiration',
        sortValue: (d) => d.expirationDate,
        sortKey: SORT_KEYS.expirationDate,
        cell: (d) => <span className="whitespace-nowrap">{formatDate(d.expirationDate)}</span>,
      },
      {
        id: 'status',
        header: 'Status',
        sortValue: (d) => statusLabel(d.status),
        sortKey: SORT_KEYS.status,
        cell: (d) => <StatusBadge status={d.status} />,
      },
      {
        id: 'actions',
        header: <span className="sr-only">Actions</span>,
        cell: (d) => (
          <Actions
            doc={d}
            onEdit={onEdit}
            onCoverage={onCoverage}
            onDelete={onDelete}
            download={start}
            downloading={pendingId === d.id}
          />
        ),
      },
    );
    return cols;
  }, [showVendor, onEdit, onCoverage, onDelete, start, pendingId]);

  return (
    <DataTable
      label={label}
      data={documents}
      columns={columns}
      getRowId={(d) => d.id}
      emptyMessage={emptyMessage}
      selection={tableSelection}
      paging={paging}
      cardsBelow={1280}
      renderCard={(d) => (
        <DocumentCard
          doc={d}
          showVendor={showVendor}
          actions={
            <Actions
              doc={d}
              onEdit={onEdit}
              onCoverage={onCoverage}
              onDelete={onDelete}
              download={start}
              downloading={pendingId === d.id}
            />
          }
        />
      )}
    />
  );
}
