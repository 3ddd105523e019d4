import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { saveFile, todayStamp } from '@/lib/save-file';

/** GET /api/documents/export: every current document as CSV (both plans), saved as a download. */
export async function exportDocuments(): Promise<string> {
  const { blob, fileName } = await api.file('/api/documents/export', {
    headers: { Accept: 'text/csv, application/json' },
    fallbackName: `documents-${todayStamp()}.csv`,
  });
  saveFile(blob, fileName);
  return fileName;
}

export function useExportDocuments() {
  return useMutation<string, ApiError, void>({ mutationFn: exportDocuments });
}
