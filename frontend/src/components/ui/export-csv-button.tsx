import { ArrowDownTrayIcon, ArrowPathIcon, TableCellsIcon } from '@heroicons/react/20/solid';
import type { UseMutationResult } from '@tanstack/react-query';
import type { ComponentType, SVGProps } from 'react';
import type { ApiError } from '@/lib/api-error';
import { Button } from './button';
import { toast } from './toast';

type ExportButtonProps = {
  /** The export's mutation: fetches the file, saves it and resolves with the file name. */
  exporter: UseMutationResult<string, ApiError, void>;
};

type ExportFileButtonProps = ExportButtonProps & {
  label: string;
  /** The toast's sentence when the server gives none. */
  fallbackError: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
};

function ExportFileButton({ exporter, label, fallbackError, icon: Icon }: ExportFileButtonProps) {
  function run() {
    exporter.mutate(undefined, {
      onSuccess: (fileName) => toast({ title: 'Download started', description: fileName, variant: 'success' }),
      onError: (error) => toast({ title: 'Export failed', description: error.message || fallbackError, variant: 'error' }),
    });
  }
  return (
    <Button variant="outline" onClick={run} disabled={exporter.isPending} aria-busy={exporter.isPending || undefined}>
      {exporter.isPending ? (
        <ArrowPathIcon aria-hidden className="size-4 animate-spin" />
      ) : (
        <Icon aria-hidden className="size-4" />
      )}
      {label}
    </Button>
  );
}

/** 'Export CSV': the whole list as a CSV download (both plans). */
export function ExportCsvButton({ exporter }: ExportButtonProps) {
  return (
    <ExportFileButton exporter={exporter} label="Export CSV" fallbackError="Failed to export CSV" icon={ArrowDownTrayIcon} />
  );
}

/** 'Export Excel': the whole list as an Excel workbook (.xlsx) download (both plans). */
export function ExportExcelButton({ exporter }: ExportButtonProps) {
  return (
    <ExportFileButton
      exporter={exporter}
      label="Export Excel"
      fallbackError="Failed to export the Excel file"
      icon={TableCellsIcon}
    />
  );
}
