import { ArrowPathIcon } from '@heroicons/react/20/solid';
import { useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CsvFileInput } from '@/components/ui/csv-file-input';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { fileExtension } from '@/lib/domain/documents';
import { readText } from '@/lib/read-text';
import type { VendorImportResult, VendorImportRow } from '@/types/api';
import { useImportVendors } from '../api/import-vendors';

const vendorsNoun = (n: number) => `${n} ${n === 1 ? 'vendor' : 'vendors'}`;

/** What will happen to one line: created, or why not. */
export function importRowOutcome(row: VendorImportRow): string {
  if (row.status === 'create') return 'Will be created';
  if (row.status === 'duplicate') return row.errors[0] ?? 'A vendor with this email already exists';
  return row.errors.length ? row.errors.join('; ') : 'Will not be created';
}

const tone = { create: 'green', duplicate: 'yellow', error: 'red' } as const;
const statusText = { create: 'New', duplicate: 'Duplicate', error: 'Error' } as const;

function PreviewTable({ result }: { result: VendorImportResult }) {
  return (
    // Focusable, so a keyboard can scroll a long preview (it holds nothing else to focus).
    <div
      role="region"
      aria-label="Import preview"
      tabIndex={0}
      className="max-h-80 overflow-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Import preview">
        <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">
              Line
            </th>
            <th scope="col" className="px-3 py-2">
              Vendor
            </th>
            <th scope="col" className="px-3 py-2">
              Result
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {result.rows.map((row) => (
            <tr key={row.line} data-status={row.status}>
              <td className="px-3 py-2 align-top text-slate-500">{row.line}</td>
              <td className="px-3 py-2 align-top">
                <span className="block font-medium text-slate-900">{row.name || '—'}</span>
                <span className="block text-xs break-all text-slate-500">{row.email || '—'}</span>
              </td>
              <td className="px-3 py-2 align-top">
                <Badge color={tone[row.status]}>{statusText[row.status]}</Badge>
                <span className="mt-1 block text-slate-700">{importRowOutcome(row)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type ImportVendorsDialogProps = { open: boolean; onClose: () => void };

/** Import CSV: pick a file, see what each line would become (a dry run), then import the good rows. */
export function ImportVendorsDialog({ open, onClose }: ImportVendorsDialogProps) {
  const input = useRef<HTMLInputElement>(null);
  const importer = useImportVendors();
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<VendorImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const committing = importer.isPending && importer.variables?.commit === true;
  const checking = reading || (importer.isPending && importer.variables?.commit === false);

  function reset() {
    setCsv(null);
    setPreview(null);
    setFailure(null);
    importer.reset();
    if (input.current) input.current.value = '';
  }

  function close() {
    if (committing) return;
    reset();
    onClose();
  }

  function fail(error: { errors?: Record<string, string[]>; message: string }) {
    setFailure(error.errors?.csv?.[0] ?? error.message ?? 'Failed to process CSV file');
  }

  async function onPick(file: File | undefined) {
    setPreview(null);
    setFailure(null);
    setCsv(null);
    if (!file) return;
    if (fileExtension(file.name) !== 'csv') {
      setFailure('Please select a valid CSV file');
      return;
    }
    setReading(true);
    let text: string;
    try {
      text = await readText(file);
    } catch {
      setFailure('Failed to process CSV file');
      return;
    } finally {
      setReading(false);
    }
    setCsv(text);
    importer.mutate({ csv: text, commit: false }, { onSuccess: setPreview, onError: fail });
  }

  function commit() {
    if (csv === null) return;
    importer.mutate(
      { csv, commit: true },
      {
        onSuccess: (result) => {
          toast({ title: `${vendorsNoun(result.created)} imported`, variant: 'success' });
          reset();
          onClose();
        },
        onError: fail,
      },
    );
  }

  const wouldCreate = preview?.wouldCreate ?? 0;
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Import Vendors"
      description="Choose a CSV file with a header line and one vendor per line, in the columns Export CSV writes. An optional Requirement set column names one of your requirement sets."
      className="max-w-2xl"
    >
      <div className="space-y-4">
        <CsvFileInput ref={input} disabled={importer.isPending || reading} onPick={(file) => void onPick(file)} />
        {checking ? (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <ArrowPathIcon aria-hidden className="size-4 animate-spin" />
            Checking the file...
          </p>
        ) : null}
        {failure ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {failure}
          </p>
        ) : null}
        {preview ? (
          <>
            <p className="text-sm text-slate-700">
              {wouldCreate} of {preview.rows.length} {preview.rows.length === 1 ? 'row' : 'rows'} will be created.
            </p>
            <PreviewTable result={preview} />
          </>
        ) : null}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close} disabled={committing}>
            Cancel
          </Button>
          <Button onClick={commit} disabled={!preview || wouldCreate === 0 || importer.isPending}>
            {committing ? 'Importing...' : `Import ${vendorsNoun(wouldCreate)}`}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
