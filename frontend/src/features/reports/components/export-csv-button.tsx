import { ArrowDownTrayIcon, ArrowPathIcon } from '@heroicons/react/20/solid';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import type { QueryParams } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { useExportReportCsv, type ReportName } from '../api/export-report-csv';

/** Downloads the report as CSV, with the same query as the one on screen. */
export function ExportCsvButton({ report, params }: { report: ReportName; params?: QueryParams }) {
  const exporter = useExportReportCsv();
  function start() {
    exporter.mutate(
      { report, params },
      {
        onSuccess: (fileName) => toast({ title: 'Export started', description: fileName, variant: 'success' }),
        onError: (error) =>
          toast({ title: 'Export failed', description: errorMessage(error, 'Failed to export the report'), variant: 'error' }),
      },
    );
  }
  return (
    <Button variant="outline" size="sm" onClick={start} disabled={exporter.isPending} aria-busy={exporter.isPending || undefined}>
      {exporter.isPending ? (
        <ArrowPathIcon aria-hidden className="size-4 animate-spin" />
      ) : (
        <ArrowDownTrayIcon aria-hidden className="size-4" />
      )}
      Export CSV
    </Button>
  );
}
