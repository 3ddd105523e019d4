import { ArrowUpTrayIcon, DocumentTextIcon } from '@heroicons/react/20/solid';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SearchInput } from '@/components/ui/search-input';
import { coiTypeLabel, documentTypeLabel } from '@/lib/domain/documents';
import { useRowSelection } from '@/lib/use-row-selection';
import type { VendorDocument } from '@/types/api';
import { useWritePermission } from '@/lib/permissions';
import { DeleteDocumentDialog } from './delete-document-dialog';
import { DocumentBulkActions } from './document-bulk-actions';
import { DocumentsTable } from './documents-table';
import { CoverageDialog } from './coverage-dialog';
import { EditDocumentDialog } from './edit-document-dialog';

const documentId = (d: VendorDocument) => d.id;

type VendorDocumentsProps = { documents: readonly VendorDocument[]; onUpload: () => void };

/** The vendor's current documents with search, view, download, edit and delete. */
export function VendorDocuments({ documents, onUpload }: VendorDocumentsProps) {
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<VendorDocument | null>(null);
  const [deleting, setDeleting] = useState<VendorDocument | null>(null);
  const [covering, setCovering] = useState<VendorDocument | null>(null);
  const write = useWritePermission();
  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    if (!needle) return documents;
    return documents.filter((d) =>
      [d.fileName, documentTypeLabel(d.documentType), coiTypeLabel(d) ?? '', d.notes ?? ''].some((f) =>
        f.toLowerCase().includes(needle),
      ),
    );
  }, [documents, search]);
  const selection = useRowSelection(rows, documentId);

  return (
    <Card className="min-w-0">
      <CardHeader
        title="Documents"
        description={`${documents.length} current ${documents.length === 1 ? 'document' : 'documents'}`}
      />
      <div className="space-y-4 p-4 sm:p-5">
        {documents.length === 0 ? (
          <EmptyState
            icon={DocumentTextIcon}
            title="No documents"
            description="Upload this vendor's W-9, certificates of insurance and other documents to track them."
            action={
              <Button onClick={onUpload} disabled={!write.allowed} title={write.reason}>
                <ArrowUpTrayIcon aria-hidden className="size-4" />
                Upload Document
              </Button>
            }
          />
        ) : (
          <>
            <SearchInput value={search} onChange={setSearch} placeholder="Search documents..." />
            <DocumentsTable
              label="Vendor documents"
              documents={rows}
              onEdit={write.allowed ? setEditing : undefined}
              onCoverage={write.allowed ? setCovering : undefined}
              onDelete={write.allowed ? setDeleting : undefined}
              selection={selection.table}
            />
            <DocumentBulkActions ids={selection.ids} onClear={selection.clear} />
          </>
        )}
      </div>
      <EditDocumentDialog document={editing} onClose={() => setEditing(null)} />
      <CoverageDialog document={covering} onClose={() => setCovering(null)} />
      <DeleteDocumentDialog document={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}
