import { ArrowDownTrayIcon, DocumentIcon } from '@heroicons/react/24/outline';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { useDocumentFile } from '../api/get-document-file';
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

/** The file itself: PDFs in a frame, images inline, other types as a download. */
export function DocumentPreview({ id, title }: { id: string; title: string }) {
  const file = useDocumentFile(id);
  const url = useObjectUrl(file.data?.blob);
  const { start } = useDownload();

  if (file.isPending) return <LoadingBlock label="Loading document" />;
  if (file.isError)
    return <QueryError error={file.error} title="The document could not be shown" onRetry={() => void file.refetch()} />;
  if (!url) return <LoadingBlock label="Preparing document" />;

  const type = file.data.contentType.toLowerCase();
  if (type.startsWith('image/')) {
    return (
      <div className="flex justify-center rounded-xl border border-slate-200 bg-white p-4">
        <img src={url} alt={title} className="max-h-[80vh] max-w-full object-contain" />
      </div>
    );
  }
  if (type.includes('pdf')) {
    return <iframe src={url} title={title} className="h-[80vh] w-full rounded-xl border border-slate-200 bg-white" />;
  }
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
