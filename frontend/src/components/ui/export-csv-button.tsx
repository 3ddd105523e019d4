import { ArrowDownTrayIcon, ArrowPathIcon } from '@heroicons/react/20/solid';
import type { UseMutationResult } from '@tanstack/react-query';
import type { ApiError } from '@/lib/api-error';
import { Button } from './button';
import { toast } from './toast';

type ExportCsvButtonProps = {
  /** The export's mutation: fetches the CSV, saves it and resolves with the file name. */
  exporter: UseMutationResult<string, ApiError, void>;
};

/** 'Export CSV': the whole list as a CSV download (both plans). */
export function ExportCsvButton({ exporter }: ExportCsvButtonProps) {
  function run() {
    exporter.mutate(undefined, {
      onSuccess: (fileName) => toast({ title: 'Download started', description: fileName, variant: 'success' }),
      onError: (error) =>
        toast({ title: 'Export failed', description: error.message || 'Failed to export CSV', variant: 'error' }),
    });
  }
  return (
    <Button variant="outline" onClick={run} disabled={exporter.isPending} aria-busy={exporter.isPending || undefined}>
      {exporter.isPending ? (
        <ArrowPathIcon aria-hidden className="size-4 animate-spin" />
      ) : (
        <ArrowDownTrayIcon aria-hidden className="size-4" />
      )}
      Export CSV
    </Button>
  );
}
