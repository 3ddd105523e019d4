import { useCallback } from 'react';
import { toast } from '@/components/ui/toast';
import { useDownloadDocument } from '../api/download-document';

/** Download with a toast: 'Download started', or 'Download failed' with the error's message. */
export function useDownload() {
  const download = useDownloadDocument();
  const start = useCallback(
    (id: string) =>
      download.mutate(id, {
        onSuccess: (fileName) => toast({ title: 'Download started', description: fileName, variant: 'success' }),
        onError: (error) =>
          toast({ title: 'Download failed', description: error.message || 'Failed to download document', variant: 'error' }),
      }),
    [download],
  );
  return { start, pendingId: download.isPending ? download.variables : undefined };
}
