import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { saveFile, todayStamp } from '@/lib/save-file';
import type { BulkIdsInput } from '@/types/api';

/** POST /api/documents/archive: one ZIP of the chosen documents (Professional), saved as a download. */
export async function downloadArchive(ids: string[]): Promise<string> {
  const body: BulkIdsInput = { ids };
  const { blob, fileName } = await api.file('/api/documents/archive', {
    method: 'POST',
    body,
    headers: { Accept: 'application/zip, application/json' },
    fallbackName: `documents-${todayStamp()}.zip`,
  });
  saveFile(blob, fileName);
  return fileName;
}

export function useDownloadArchive() {
  return useMutation<string, ApiError, string[]>({ mutationFn: downloadArchive });
}
