import { ArrowDownTrayIcon } from '@heroicons/react/24/outline';
import { useParams } from 'react-router';
import { StatusBadge } from '@/components/compliance/status-badge';
import { Logo } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { coiTypeLabel, documentTypeLabel } from '@/lib/domain/documents';
import { formatDate } from '@/lib/format';
import { useDocument } from '../api/get-document';
import { CoveragePanel } from '../components/coverage-panel';
import { DocumentPreview } from '../components/document-preview';
import { useDownload } from '../hooks/use-download';
import { ERROR_CODES } from '@/lib/api-error';

/** /view-document/{id}, opened in a new tab from the View actions. */
export function ViewDocumentRoute() {
  const { id = '' } = useParams();
  const doc = useDocument(id);
  const { start, pendingId } = useDownload();

  let body;
  if (doc.isPending) body = <LoadingBlock label="Loading document" />;
  else if (doc.isError) {
    body =
      doc.error.code === ERROR_CODES.notFound ? (
        <EmptyState
          headingLevel={1}
          title="Document not found"
          description="The document you're looking for doesn't exist or has been removed."
        />
      ) : (
        <QueryError error={doc.error} onRetry={() => void doc.refetch()} />
      );
  } else {
    const d = doc.data;
    const coi = coiTypeLabel(d);
    body = (
      <>
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h1 className="truncate text-xl font-bold text-slate-900" title={d.fileName}>
              {d.fileName}
            </h1>
            <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
              <span>
                {documentTypeLabel(d.documentType)}
                {coi ? ` · ${coi}` : ''}
              </span>
              {d.vendor ? <span>{d.vendor}</span> : null}
              <span>Expires {formatDate(d.expirationDate)}</span>
              <StatusBadge status={d.status} />
            </p>
          </div>
          <Button variant="outline" onClick={() => start(d.id)} disabled={pendingId === d.id}>
            <ArrowDownTrayIcon aria-hidden className="size-4" />
            Download
          </Button>
        </div>
        {d.documentType === 'coi' ? (
          // A certificate beside its coverage form (stacked on a phone); the certificate stays in
          // view while the form scrolls, to copy it field by field.
          <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
            <div className="min-w-0 lg:sticky lg:top-4">
              <DocumentPreview id={d.id} title={d.fileName} contentType={d.contentType} />
            </div>
            <div className="min-w-0">
              <CoveragePanel document={d} />
            </div>
          </div>
        ) : (
          <DocumentPreview id={d.id} title={d.fileName} contentType={d.contentType} />
        )}
      </>
    );
  }

  return (
    <div className="min-h-dvh bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center px-4 sm:px-6">
          <Logo to="/dashboard" />
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6">{body}</main>
    </div>
  );
}

export default ViewDocumentRoute;
