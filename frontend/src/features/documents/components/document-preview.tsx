import { ArrowDownTrayIcon, DocumentIcon } from '@heroicons/react/24/outline';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { useDocumentFile } from '../api/get-document-file';
import { useDocumentViewLink } from '../api/get-document-view-link';
import { useDownload } from '../hooks/use-download';

/** Object URL for a blob, revoked when the blob changes or the component goes. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return undefined;
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

const frameClass = 'h-[80vh] w-full rounded-xl border border-slate-200 bg-white';
/** Pictures every browser shows; a HEIC or TIFF the server could not convert comes as itself. */
const BROWSER_IMAGES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/**
 * A PDF in a frame loaded straight from a short-lived signed link ending with the file's name, so
 * that the browser's PDF viewer shows the name rather than a `blob:` id.
 */
function PdfPreview({ id, title }: { id: string; title: string }) {
  const link = useDocumentViewLink(id);
  if (link.isPending) return <LoadingBlock label="Loading document" />;
  if (link.isError)
    return <QueryError error={link.error} title="The document could not be shown" onRetry={() => void link.refetch()} />;
  return <iframe src={link.data.url} title={title} className={frameClass} />;
}

/**
 * The file itself: PDFs in a frame, images inline (HEIC and TIFF arrive converted by the server),
 * other types as a download.
 */
export function DocumentPreview({ id, title, contentType }: { id: string; title: string; contentType?: string | null }) {
  const isPdf = contentType?.toLowerCase().includes('pdf') ?? false;
  if (isPdf) return <PdfPreview id={id} title={title} />;
  return <FilePreview id={id} title={title} />;
}

function FilePreview({ id, title }: { id: string; title: string }) {
  const file = useDocumentFile(id);
  const url = useObjectUrl(file.data?.blob);
  const { start } = useDownload();

  if (file.isPending) return <LoadingBlock label="Loading document" />;
  if (file.isError)
    return <QueryError error={file.error} title="The document could not be shown" onRetry={() => void file.refetch()} />;
  if (!url) return <LoadingBlock label="Preparing document" />;

  const type = file.data.contentType.toLowerCase();
  if (BROWSER_IMAGES.some((t) => type.startsWith(t))) {
    return (
      <div className="flex justify-center rounded-xl border border-slate-200 bg-white p-4">
        <img src={url} alt={title} className="max-h-[80vh] max-w-full object-contain" />
      </div>
    );
  }
  if (type.includes('pdf')) return <iframe src={url} title={title} className={frameClass} />;
  return (
    <EmptyState
      icon={DocumentIcon}
      title="Preview not available"
      headingLevel={2}
      description="This file type cannot be shown in the browser. Download it to open it."
      action={
        <Button onClick={() => start(id)}>
          <ArrowDownTrayIcon aria-hidden className="size-4" />
          Download
        </Button>
      }
    />
  );
}
