import { ArrowDownTrayIcon, ArrowPathIcon, TableCellsIcon } from '@heroicons/react/20/solid';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import type { QueryParams } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import type { ExportFormat } from '@/lib/save-file';
import { useExportReportCsv, type ReportName } from '../api/export-report-csv';

type ReportExportProps = { report: ReportName; params?: QueryParams };

const LABELS = { csv: 'Export CSV', xlsx: 'Export Excel' } as const;
const FAILURES = { csv: 'Failed to export the report', xlsx: 'Failed to export the report as Excel' } as const;

/** Downloads the report as CSV or as an Excel workbook, with the same query as the one on screen. */
function ExportReportButton({ report, params, format }: ReportExportProps & { format: ExportFormat }) {
  const exporter = useExportReportCsv();
  function start() {
    exporter.mutate(
      { report, params, format },
      {
        onSuccess: (fileName) => toast({ title: 'Download started', description: fileName, variant: 'success' }),
        onError: (error) =>
          toast({ title: 'Export failed', description: errorMessage(error, FAILURES[format]), variant: 'error' }),
      },
    );
  }
  const Icon = format === 'xlsx' ? TableCellsIcon : ArrowDownTrayIcon;
  return (
    <Button variant="outline" size="sm" onClick={start} disabled={exporter.isPending} aria-busy={exporter.isPending || undefined}>
      {exporter.isPending ? (
        <ArrowPathIcon aria-hidden className="size-4 animate-spin" />
      ) : (
        <Icon aria-hidden className="size-4" />
      )}
      {LABELS[format]}
    </Button>
  );
}

/** Downloads the report as CSV, with the same query as the one on screen. */
export function ExportCsvButton(props: ReportExportProps) {
  return <ExportReportButton {...props} format="csv" />;
}

/** Downloads the report as an Excel workbook, with the same query as the one on screen. */
export function ExportExcelButton(props: ReportExportProps) {
  return <ExportReportButton {...props} format="xlsx" />;
}

/** Export CSV and Export Excel side by side. */
export function ReportExportButtons(props: ReportExportProps) {
  return (
    <>
      <ExportCsvButton {...props} />
      <ExportExcelButton {...props} />
    </>
  );
}
