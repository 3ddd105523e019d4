import { DocumentTextIcon } from '@heroicons/react/24/outline';
import { useId, useMemo, useState } from 'react';
import { PageHeader } from '@/components/layouts/page-header';
import { ExportCsvButton } from '@/components/ui/export-csv-button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { SearchInput } from '@/components/ui/search-input';
import { Select } from '@/components/ui/select';
import { useRowSelection } from '@/lib/use-row-selection';
import type { VendorDocument } from '@/types/api';
import { useExportDocuments } from '../api/export-documents';
import { useDocuments } from '../api/get-documents';
import { DocumentBulkActions } from '../components/document-bulk-actions';
import { DeleteDocumentDialog } from '../components/delete-document-dialog';
import { DocumentsTable } from '../components/documents-table';
import {
  DOCUMENT_SEARCH_SUGGESTIONS,
  DOCUMENT_STATUS_OPTIONS,
  filterDocuments,
  type DocumentStatusFilter,
} from '../lib/filter-documents';

export function DocumentsRoute() {
  const documents = useDocuments();
  const listId = useId();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<DocumentStatusFilter>('all');
  const [deleting, setDeleting] = useState<VendorDocument | null>(null);
  const rows = useMemo(() => filterDocuments(documents.data ?? [], search, status), [documents.data, search, status]);
  const filtered = search.trim() !== '' || status !== 'all';
  const rowIds = useMemo(() => rows.map((d) => d.id), [rows]);
  const selection = useRowSelection(rowIds);
  const exporter = useExportDocuments();
  const tableSelection = useMemo(
    () => ({ selected: selection.selected, onChange: selection.setSelected }),
    [selection.selected, selection.setSelected],
  );

  return (
    <>
      <PageHeader
        title="Documents"
        description="Every current document of every vendor"
        action={<ExportCsvButton exporter={exporter} />}
      />
      <div className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row">
          <SearchInput
            value={search}
            onChange={setSearch}
            placeholder="Search by document type..."
            className="flex-1"
            list={listId}
          />
          <datalist id={listId}>
            {DOCUMENT_SEARCH_SUGGESTIONS.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <Select
            label="Filter by status"
            hideLabel
            value={status}
            onChange={setStatus}
            options={DOCUMENT_STATUS_OPTIONS}
            className="sm:w-52"
          />
        </div>
        {documents.isPending ? (
          <LoadingBlock label="Loading documents" />
        ) : documents.isError ? (
          <QueryError error={documents.error} onRetry={() => void documents.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={DocumentTextIcon}
            title="No documents found"
            headingLevel={2}
            description={
              filtered ? 'Try changing your search or filter criteria' : 'Documents you or your vendors upload will appear here'
            }
          />
        ) : (
          <DocumentsTable label="Documents" documents={rows} showVendor onDelete={setDeleting} selection={tableSelection} />
        )}
        <DocumentBulkActions ids={selection.ids} onClear={selection.clear} />
      </div>
      <DeleteDocumentDialog document={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

export default DocumentsRoute;
