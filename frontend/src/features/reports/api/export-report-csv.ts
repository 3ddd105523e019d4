import { useMutation } from '@tanstack/react-query';
import { api, type QueryParams } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { saveBlob } from '@/lib/save-file';

export type ReportName = 'compliance' | 'expirations' | 'non-compliant' | 'responsiveness';

export type ReportExport = { report: ReportName; params?: QueryParams };

/** GET /api/reports/<name>?format=csv with the report's own query, saved as a file; resolves to its name. */
export async function exportReportCsv({ report, params }: ReportExport): Promise<string> {
  const { blob, fileName } = await api.file(`/api/reports/${report}`, {
    params: { ...params, format: 'csv' },
    headers: { Accept: 'text/csv' },
    fallbackName: `${report}-report.csv`,
  });
  saveBlob(blob, fileName);
  return fileName;
}

export function useExportReportCsv() {
  return useMutation<string, ApiError, ReportExport>({ mutationFn: exportReportCsv });
}
