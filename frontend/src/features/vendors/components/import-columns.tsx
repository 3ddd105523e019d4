import { useId, type Ref } from 'react';
import { inputClasses } from '@/components/ui/field';
import { SERVICE_TYPE_OPTIONS } from '@/lib/domain/service-types';
import type { RequirementSet, VendorImportColumn, VendorImportField, VendorImportResult } from '@/types/api';

/** The vendor fields a column can fill, in the Add Vendor form's words and order. */
export const IMPORT_FIELDS: readonly { value: VendorImportField; label: string }[] = [
  { value: 'name', label: 'Vendor name' },
  { value: 'email', label: 'Contact email' },
  { value: 'serviceType', label: 'Service type' },
  { value: 'phone', label: 'Phone' },
  { value: 'address', label: 'Address' },
  { value: 'city', label: 'City' },
  { value: 'state', label: 'State' },
  { value: 'zipCode', label: 'Zip code' },
  { value: 'notes', label: 'Notes' },
  { value: 'requirementSet', label: 'Requirement set' },
];

/**
 * What a column's select offers: a field; "Keep in Notes" (the field `notes`: the server keeps
 * each value as "Header: value"); or "Ignore" (null).
 */
export type ColumnChoice = VendorImportField | 'keep-in-notes' | 'ignore';

export function choiceField(choice: ColumnChoice): VendorImportField | null {
  if (choice === 'ignore') return null;
  return choice === 'keep-in-notes' ? 'notes' : choice;
}

const ENCODINGS: Record<string, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16',
  'windows-1252': 'Windows-1252 (Excel’s classic CSV)',
};

/** The encoding the server read the file in, in words. */
export function encodingWords(encoding: string): string {
  return ENCODINGS[encoding.toLowerCase()] ?? encoding;
}

const DELIMITERS: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };

/** The file's delimiter in words: comma, semicolon or tab. */
export function delimiterWords(delimiter: string): string {
  return DELIMITERS[delimiter] ?? `“${delimiter}”`;
}

/** How the server read the file: its encoding, its delimiter and where its header was. */
export function FileFacts({ result }: { result: VendorImportResult }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
      <dl className="flex flex-wrap gap-x-6 gap-y-1">
        <div className="flex gap-1.5">
          <dt className="font-medium text-slate-900">Encoding:</dt>
          <dd>{encodingWords(result.encoding)}</dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="font-medium text-slate-900">Delimiter:</dt>
          <dd>{delimiterWords(result.delimiter)}</dd>
        </div>
      </dl>
      {result.headerLine > 1 ? (
        <p className="mt-1">Header found on line {result.headerLine}; the lines above it were skipped.</p>
      ) : null}
    </div>
  );
}

const SAMPLE_CHARS = 80;
const shortSample = (sample: string) => (sample.length > SAMPLE_CHARS ? `${sample.slice(0, SAMPLE_CHARS - 1)}…` : sample);
/** A column the file has only as an empty cell at the end of its lines (a spreadsheet's habit). */
const blankColumn = (column: VendorImportColumn) => column.header === '' && column.sample === '';

type ColumnMappingProps = {
  columns: readonly VendorImportColumn[];
  ignored: readonly string[];
  /** The person's choices by header; a column without one shows the server's. */
  choices: Readonly<Record<string, ColumnChoice>>;
  onChange: (header: string, choice: ColumnChoice) => void;
  /** The server's sentences on the mapping (two columns for one field, no name column). */
  errors: readonly string[];
  disabled?: boolean;
  headingRef?: Ref<HTMLHeadingElement>;
};

/** The file's columns, each with a sample value and a select for the field it fills. */
export function ColumnMapping({ columns, ignored, choices, onChange, errors, disabled, headingRef }: ColumnMappingProps) {
  const id = useId();
  const shown = columns.map((column, index) => ({ column, index })).filter(({ column }) => !blankColumn(column));
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-2">
      <h3
        id={`${id}-heading`}
        ref={headingRef}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 focus:outline-none"
      >
        Columns
      </h3>
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        Choose the field each column fills. Several columns may fill Address (joined) or Notes; Keep in Notes keeps a column’s
        values in Notes after its header. Changing a column checks the file again.
      </p>
      {shown.some(({ column }) => (choices[column.header] ?? column.field) === 'name') ? null : (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
          No column fills Vendor name: choose the column with the vendors’ names.
        </p>
      )}
      {errors.length > 0 ? (
        <div role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          <ul className="list-disc space-y-1 pl-5">
            {errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
        {shown.map(({ column, index }) => {
          const selectId = `${id}-column-${index}`;
          const value: ColumnChoice = choices[column.header] ?? column.field ?? 'ignore';
          return (
            <li
              key={index}
              data-field={choiceField(value) ?? 'ignored'}
              className="grid gap-2 px-3 py-2.5 sm:grid-cols-[minmax(0,1fr)_14rem] sm:items-center sm:gap-4"
            >
              <div className="min-w-0">
                <label htmlFor={selectId} className="block text-sm font-medium break-words text-slate-900">
                  <span className="sr-only">Column </span>
                  {column.header || '(no header)'}
                </label>
                <p id={`${selectId}-sample`} className="text-xs break-words text-slate-500">
                  {column.sample ? (
                    <>
                      Sample: <span className="text-slate-700">{shortSample(column.sample)}</span>
                    </>
                  ) : (
                    'No values'
                  )}
                </p>
              </div>
              <select
                id={selectId}
                aria-describedby={`${selectId}-sample`}
                className={inputClasses}
                value={value}
                disabled={disabled}
                onChange={(e) => onChange(column.header, e.target.value as ColumnChoice)}
              >
                <optgroup label="Vendor field">
                  {IMPORT_FIELDS.map((field) => (
                    <option key={field.value} value={field.value}>
                      {field.label}
                    </option>
                  ))}
                </optgroup>
                <optgroup label="Not a field">
                  <option value="keep-in-notes">Keep in Notes</option>
                  <option value="ignore">Ignore</option>
                </optgroup>
              </select>
            </li>
          );
        })}
      </ul>
      {ignored.length > 0 ? (
        <p className="text-sm text-slate-600">
          <span className="font-medium text-slate-900">Ignored {ignored.length === 1 ? 'column' : 'columns'}:</span>{' '}
          {ignored.map((header) => header || '(no header)').join(', ')}
        </p>
      ) : null}
    </section>
  );
}

export type DefaultChoices = { serviceType: string; requirementSet: string };

type ImportDefaultsProps = {
  value: DefaultChoices;
  onChange: (value: DefaultChoices) => void;
  sets: readonly RequirementSet[];
  errors: { serviceType?: string; requirementSet?: string };
  disabled?: boolean;
};

/** A service type and a requirement set for the rows that name none. */
export function ImportDefaultsFields({ value, onChange, sets, errors, disabled }: ImportDefaultsProps) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-2">
      <h3 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        Defaults
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <DefaultSelect
          id={`${id}-service`}
          label="Service type for rows without one"
          value={value.serviceType}
          onChange={(serviceType) => onChange({ ...value, serviceType })}
          options={SERVICE_TYPE_OPTIONS}
          error={errors.serviceType}
          disabled={disabled}
        />
        {sets.length > 0 ? (
          <DefaultSelect
            id={`${id}-set`}
            label="Requirement set for rows without one"
            value={value.requirementSet}
            onChange={(requirementSet) => onChange({ ...value, requirementSet })}
            options={sets.map((set) => ({ value: set.id, label: set.name }))}
            error={errors.requirementSet}
            disabled={disabled}
          />
        ) : null}
      </div>
    </section>
  );
}

type DefaultSelectProps = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  error?: string;
  disabled?: boolean;
};

function DefaultSelect({ id, label, value, onChange, options, error, disabled }: DefaultSelectProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        className={inputClasses}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">No default</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
