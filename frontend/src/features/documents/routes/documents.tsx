import { DocumentTextIcon } from '@heroicons/react/24/outline';
import { useCallback, useId, useMemo, useState } from 'react';
import { PageHeader } from '@/components/layouts/page-header';
import { ExportCsvButton, ExportExcelButton } from '@/components/ui/export-csv-button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { SearchInput } from '@/components/ui/search-input';
import { Select } from '@/components/ui/select';
import { TABLE_PAGE_SIZE } from '@/config';
import { pagingOf, useListControls } from '@/lib/use-list-controls';
import { usePagedSelection } from '@/lib/use-paged-selection';
import type { VendorDocument } from '@/types/api';
import { useWritePermission } from '@/lib/permissions';
import { useExportDocuments } from '../api/export-documents';
import { getDocumentPage, useDocumentPage, type DocumentPageParams } from '../api/get-documents';
import { DocumentBulkActions } from '../components/document-bulk-actions';
import { DeleteDocumentDialog } from '../components/delete-document-dialog';
import { DocumentsTable, documentSortParam } from '../components/documents-table';
import {
  DOCUMENT_SEARCH_SUGGESTIONS,
  DOCUMENT_STATUS_OPTIONS,
  documentSearchQuery,
  type DocumentStatusFilter,
} from '../lib/filter-documents';

const documentId = (d: VendorDocument) => d.id;

export function DocumentsRoute() {
  const listId = useId();
  const list = useListControls<DocumentStatusFilter>('all');
  const { query, filter, sort, offset } = list;
  // A current document is never missing (a slot without a document is): nothing to ask for.
  const noneMissing = filter === 'missing';
  const params = useMemo<DocumentPageParams>(
    () => ({
      limit: TABLE_PAGE_SIZE,
      offset,
      q: documentSearchQuery(query),
      status: filter === 'all' || filter === 'missing' ? undefined : filter,
      sort: documentSortParam(sort),
    }),
    [query, filter, sort, offset],
  );
  const documents = useDocumentPage(params, { enabled: !noneMissing });
  const { paging, answered } = pagingOf(list, documents);

  const [deleting, setDeleting] = useState<VendorDocument | null>(null);
  const write = useWritePermission();
  const fetchMatching = useCallback(
    async (limit: number) => (await getDocumentPage({ ...params, limit, offset: 0 })).items,
    [params],
  );
  const selection = usePagedSelection({
    getId: documentId,
    scope: list.selectionScope,
    total: documents.data?.total ?? 0,
    page: answered && { key: JSON.stringify(params), rows: answered.items },
    fetchMatching,
  });
  const exporter = useExportDocuments();
  const excelExporter = useExportDocuments('xlsx');

  const empty = (
    <EmptyState
      icon={DocumentTextIcon}
      title="No documents found"
      headingLevel={2}
      description={
        list.filtered ? 'Try changing your search or filter criteria' : 'Documents you or your vendors upload will appear here'
      }
    />
  );

  return (
    <>
      <PageHeader
        title="Documents"
        description="Every current document of every vendor"
        action={
          <>
            <ExportCsvButton exporter={exporter} />
            <ExportExcelButton exporter={excelExporter} />
          </>
        }
      />
      <div className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row">
          <SearchInput
            value={list.search}
            onChange={list.setSearch}
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
            value={filter}
            onChange={list.setFilter}
            options={DOCUMENT_STATUS_OPTIONS}
            className="sm:w-52"
          />
        </div>
        {noneMissing ? (
          empty
        ) : documents.isPending ? (
          <LoadingBlock label="Loading documents" />
        ) : documents.isError ? (
          <QueryError error={documents.error} onRetry={() => void documents.refetch()} />
        ) : documents.data.total === 0 ? (
          empty
        ) : (
          <DocumentsTable
            label="Documents"
            documents={documents.data.items}
            showVendor
            onDelete={write.allowed ? setDeleting : undefined}
            selection={selection.table}
            paging={paging}
          />
        )}
        <DocumentBulkActions ids={selection.ids} count={selection.count} onClear={selection.clear} />
      </div>
      <DeleteDocumentDialog document={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

export default DocumentsRoute;
