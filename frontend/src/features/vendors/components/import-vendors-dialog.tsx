import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CsvFileInput } from '@/components/ui/csv-file-input';
import { Dialog } from '@/components/ui/dialog';
import { ProgressBar } from '@/components/ui/progress-bar';
import { toast } from '@/components/ui/toast';
import { getRequirementSetsQueryOptions } from '@/lib/api/requirement-sets';
import type { ApiError, FieldErrors } from '@/lib/api-error';
import { fileExtension } from '@/lib/domain/documents';
import { formatFileSize } from '@/lib/format';
import type { VendorImportResult } from '@/types/api';
import { useImportVendors, type ImportMapping, type ImportVendorsInput } from '../api/import-vendors';
import {
  choiceField,
  ColumnMapping,
  FileFacts,
  ImportDefaultsFields,
  type ColumnChoice,
  type DefaultChoices,
} from './import-columns';
import { ImportLimit, ImportRows } from './import-rows';

const vendorsNoun = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'vendor' : 'vendors'}`;

/** The largest file the server reads (a larger one is a 413). */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
/** Text files a spreadsheet or an accounting program saves: comma, semicolon or tab separated. */
const ACCEPT = '.csv,.txt,.tsv,text/csv,text/plain,text/tab-separated-values';
const TEXT_EXTENSIONS = ['csv', 'txt', 'tsv'];
const TEXT_TYPES = ['text/csv', 'text/plain', 'text/tab-separated-values'];
const WORKBOOK_EXTENSIONS = ['xlsx', 'xlsm', 'xls', 'ods', 'numbers'];

const NOT_CSV = 'Please select a valid CSV file';
const SAVE_AS_CSV = 'Excel workbooks must be saved as CSV first: in Excel, choose File > Save As > CSV UTF-8 (Comma delimited).';

/** Why a file cannot be sent, checked before its bytes go; null when it may be. */
export function refuseImportFile(file: File): string | null {
  const extension = fileExtension(file.name);
  if (WORKBOOK_EXTENSIONS.includes(extension)) return `${NOT_CSV}. ${SAVE_AS_CSV}`;
  if (!TEXT_EXTENSIONS.includes(extension) && !(extension === '' && TEXT_TYPES.includes(file.type))) return NOT_CSV;
  if (file.size > MAX_IMPORT_BYTES) return 'The file is too large: an import takes at most 5 MB.';
  return null;
}

const NO_DEFAULTS: DefaultChoices = { serviceType: '', requirementSet: '' };
const CHOICE_ERRORS = ['mapping', 'defaults', 'defaults.serviceType', 'defaults.requirementSet'];

function mappingOf(choices: Record<string, ColumnChoice>): ImportMapping {
  return Object.fromEntries(Object.entries(choices).map(([header, choice]) => [header, choiceField(choice)]));
}

type ImportVendorsDialogProps = { open: boolean; onClose: () => void };

/**
 * Import vendors from a file as it was saved: its bytes are sent (with upload progress), the server
 * says how it read it and what each line would become (a dry run); the person maps the columns and
 * sets defaults, each change checked again; then the good rows are imported.
 */
export function ImportVendorsDialog({ open, onClose }: ImportVendorsDialogProps) {
  const input = useRef<HTMLInputElement>(null);
  const columnsHeading = useRef<HTMLHeadingElement>(null);
  const rowsHeading = useId();
  const importer = useImportVendors();
  const sets = useQuery({ ...getRequirementSetsQueryOptions(), enabled: open });
  const [file, setFile] = useState<File | null>(null);
  const [choices, setChoices] = useState<Record<string, ColumnChoice>>({});
  const [defaults, setDefaults] = useState<DefaultChoices>(NO_DEFAULTS);
  const [preview, setPreview] = useState<VendorImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** The server's refusal of the person's mapping or defaults: the preview shown is not theirs. */
  const [choiceErrors, setChoiceErrors] = useState<FieldErrors>({});
  /** A new preview failed otherwise (a lost connection): the one shown is not of the choices made. */
  const [outdated, setOutdated] = useState(false);
  const [progress, setProgress] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  /** The latest call: progress from an earlier one (a choice changed meanwhile) is not shown. */
  const calls = useRef(0);
  /** Once the first preview of a file is drawn, the focus goes to its columns. */
  const focusColumns = useRef(false);
  const committing = importer.isPending && importer.variables?.commit === true;
  const stale = outdated || Object.keys(choiceErrors).length > 0;

  useEffect(() => {
    if (preview && focusColumns.current) {
      focusColumns.current = false;
      columnsHeading.current?.focus();
    }
  }, [preview]);

  function reset() {
    calls.current += 1;
    setFile(null);
    setChoices({});
    setDefaults(NO_DEFAULTS);
    setPreview(null);
    setFailure(null);
    setChoiceErrors({});
    setOutdated(false);
    setProgress(0);
    setAnnouncement('');
    importer.reset();
    if (input.current) input.current.value = '';
  }

  function close() {
    if (committing) return;
    reset();
    onClose();
  }

  function send(
    request: Omit<ImportVendorsInput, 'onProgress' | 'mapping' | 'defaults'>,
    chosen: { choices: Record<string, ColumnChoice>; defaults: DefaultChoices },
    onSuccess: (result: VendorImportResult) => void,
  ) {
    const call = ++calls.current;
    setProgress(0);
    setAnnouncement(request.commit ? 'Uploading the file to import it.' : 'Uploading the file to check it.');
    importer.mutate(
      {
        ...request,
        mapping: mappingOf(chosen.choices),
        defaults: {
          serviceType: chosen.defaults.serviceType || null,
          requirementSet: chosen.defaults.requirementSet || null,
        },
        onProgress: (percent) => {
          if (call === calls.current) setProgress(percent);
        },
      },
      { onSuccess, onError: (error) => fail(error, request.commit) },
    );
  }

  function fail(error: ApiError, commit: boolean) {
    const errors = error.errors ?? {};
    const onChoices = Object.fromEntries(Object.entries(errors).filter(([field]) => CHOICE_ERRORS.includes(field)));
    if (!commit && preview && Object.keys(onChoices).length > 0) {
      // The columns stay on screen to be chosen again; the rows are no longer what the choices give.
      setChoiceErrors(onChoices);
      setFailure(null);
      setAnnouncement('The file could not be checked with these choices.');
      return;
    }
    if (!commit && preview) setOutdated(true);
    const sentences = errors.file ?? errors.csv ?? Object.values(onChoices).flat();
    const message = sentences.length > 0 ? sentences.join(' ') : error.message || 'Failed to process CSV file';
    // Without a preview there are no columns to choose from: the file must name its name column.
    const hint = errors.mapping && !preview ? ' Give that column the header “Name” and choose the file again.' : '';
    setFailure(message + hint);
    setAnnouncement('');
  }

  function previewWith(chosen: { choices: Record<string, ColumnChoice>; defaults: DefaultChoices }, picked = file) {
    if (!picked) return;
    send({ file: picked, commit: false }, chosen, (result) => {
      setPreview(result);
      setChoiceErrors({});
      setOutdated(false);
      setFailure(null);
      // Not the summary's own words: a search for the summary finds it once.
      const total = result.rows.length;
      setAnnouncement(`File checked: ${result.wouldCreate} of ${total} ${total === 1 ? 'row' : 'rows'} can be imported.`);
    });
  }

  function onPick(picked: File | undefined) {
    calls.current += 1;
    importer.reset();
    setPreview(null);
    setFailure(null);
    setChoiceErrors({});
    setOutdated(false);
    setChoices({});
    setFile(null);
    if (!picked) return;
    const refusal = refuseImportFile(picked);
    if (refusal) {
      setFailure(refusal);
      return;
    }
    setFile(picked);
    focusColumns.current = true;
    previewWith({ choices: {}, defaults }, picked);
  }

  function changeColumn(header: string, choice: ColumnChoice) {
    const next = { ...choices, [header]: choice };
    setChoices(next);
    previewWith({ choices: next, defaults });
  }

  function changeDefaults(next: DefaultChoices) {
    setDefaults(next);
    previewWith({ choices, defaults: next });
  }

  function commit() {
    if (!file) return;
    send({ file, commit: true }, { choices, defaults }, (result) => {
      toast({ title: `${vendorsNoun(result.created)} imported`, variant: 'success' });
      reset();
      onClose();
    });
  }

  const wouldCreate = preview && !stale ? preview.wouldCreate : 0;
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Import Vendors"
      description="Choose a CSV file with a header line and one vendor per line, in the columns Export CSV writes. An optional Requirement set column names one of your requirement sets."
      className="max-w-3xl"
    >
      <div className="space-y-5">
        <CsvFileInput
          ref={input}
          accept={ACCEPT}
          disabled={committing}
          onPick={onPick}
          hint={
            <p className="text-xs text-slate-500">
              A .csv or .txt file as Excel, Google Sheets, QuickBooks or Xero save it: comma, semicolon or tab separated, at most
              5 MB. Excel workbooks (.xlsx) must be saved as CSV first.
            </p>
          }
        />
        {file ? (
          // One place for the progress and the file's name, so the choices below do not move.
          <div className="min-h-9 space-y-1">
            {importer.isPending ? (
              <>
                <ProgressBar
                  value={progress}
                  label="Upload progress"
                  valueText={progress < 100 ? `${Math.round(progress)}% of the file sent` : 'File sent'}
                />
                <p className="text-sm text-slate-600">
                  {progress < 100
                    ? `Sending the file... ${Math.round(progress)}%`
                    : committing
                      ? 'Importing...'
                      : 'Checking the file...'}
                </p>
              </>
            ) : (
              <p className="pt-2 text-sm break-all text-slate-600">
                {file.name} ({formatFileSize(file.size)})
              </p>
            )}
          </div>
        ) : null}
        <p aria-live="polite" className="sr-only">
          {announcement}
        </p>
        {failure ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {failure}
          </p>
        ) : null}
        {preview ? (
          <>
            <FileFacts result={preview} />
            <ColumnMapping
              headingRef={columnsHeading}
              columns={preview.columns}
              ignored={stale ? [] : preview.ignoredColumns}
              choices={choices}
              onChange={changeColumn}
              errors={choiceErrors.mapping ?? []}
              disabled={committing}
            />
            <ImportDefaultsFields
              value={defaults}
              onChange={changeDefaults}
              sets={sets.data ?? []}
              errors={{
                serviceType: choiceErrors['defaults.serviceType']?.[0] ?? choiceErrors.defaults?.[0],
                requirementSet: choiceErrors['defaults.requirementSet']?.[0],
              }}
              disabled={committing}
            />
            {stale ? null : (
              <section aria-labelledby={rowsHeading} className="space-y-2">
                <h3 id={rowsHeading} className="text-base font-semibold text-slate-900">
                  Rows
                </h3>
                <ImportLimit result={preview} />
                <ImportRows result={preview} />
              </section>
            )}
          </>
        ) : null}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close} disabled={committing}>
            Cancel
          </Button>
          <Button onClick={commit} disabled={!preview || stale || wouldCreate === 0 || importer.isPending}>
            {committing ? 'Importing...' : `Import ${vendorsNoun(wouldCreate)}`}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

export default ImportVendorsDialog;
