import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { exportAccept, saveFile, todayStamp, type ExportFormat } from '@/lib/save-file';

/**
 * GET /api/documents/export: every current document as CSV (the default) or, with
 * `?format=xlsx`, as an Excel workbook (both plans), saved as a download.
 */
export async function exportDocuments(format: ExportFormat = 'csv'): Promise<string> {
  const { blob, fileName } = await api.file('/api/documents/export', {
    params: format === 'xlsx' ? { format } : undefined,
    headers: { Accept: exportAccept(format) },
    fallbackName: `documents-${todayStamp()}.${format}`,
  });
  saveFile(blob, fileName);
  return fileName;
}

export function useExportDocuments(format: ExportFormat = 'csv') {
  return useMutation<string, ApiError, void>({ mutationFn: () => exportDocuments(format) });
}
