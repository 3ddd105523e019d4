import { useMutation } from '@tanstack/react-query';
import { api, type QueryParams } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { saveBlob, XLSX_CONTENT_TYPE, type ExportFormat } from '@/lib/save-file';

export type ReportName = 'compliance' | 'expirations' | 'non-compliant' | 'responsiveness';

export type ReportExport = { report: ReportName; params?: QueryParams; format?: ExportFormat };

/**
 * GET /api/reports/<name>?format=csv (or `xlsx`, an Excel workbook) with the report's own query,
 * saved as a file; resolves to its name.
 */
export async function exportReportCsv({ report, params, format = 'csv' }: ReportExport): Promise<string> {
  const { blob, fileName } = await api.file(`/api/reports/${report}`, {
    params: { ...params, format },
    headers: { Accept: format === 'xlsx' ? XLSX_CONTENT_TYPE : 'text/csv' },
    fallbackName: `${report}-report.${format}`,
  });
  saveBlob(blob, fileName);
  return fileName;
}

export function useExportReportCsv() {
  return useMutation<string, ApiError, ReportExport>({ mutationFn: exportReportCsv });
}
