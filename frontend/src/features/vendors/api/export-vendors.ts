import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { saveFile, todayStamp } from '@/lib/save-file';

/** GET /api/vendors/export: every vendor as CSV (both plans), saved as a download. */
export async function exportVendors(): Promise<string> {
  const { blob, fileName } = await api.file('/api/vendors/export', {
    headers: { Accept: 'text/csv, application/json' },
    fallbackName: `vendors-${todayStamp()}.csv`,
  });
  saveFile(blob, fileName);
  return fileName;
}

export function useExportVendors() {
  return useMutation<string, ApiError, void>({ mutationFn: exportVendors });
}
