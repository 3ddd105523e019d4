import { useId, type ReactNode, type Ref } from 'react';

type CsvFileInputProps = {
  onPick: (file: File | undefined) => void;
  disabled?: boolean;
  /** A line under the input, which also describes it to screen readers. */
  hint?: ReactNode;
  /** The file chooser's filter: CSV files by default. */
  accept?: string;
  ref?: Ref<HTMLInputElement>;
};

/** The labelled "CSV file" chooser of the CSV dialogs (vendor import, keyword upload). */
export function CsvFileInput({ onPick, disabled, hint, accept = '.csv,text/csv', ref }: CsvFileInputProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        CSV file
      </label>
      <input
        ref={ref}
        id={id}
        type="file"
        accept={accept}
        disabled={disabled}
        aria-describedby={hint ? hintId : undefined}
        onChange={(e) => onPick(e.target.files?.[0])}
        className="block max-w-full rounded-md text-sm text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 file:mr-3 file:rounded-md file:border-0 file:bg-blue-600 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-white hover:file:bg-blue-700 disabled:opacity-60"
      />
      {hint ? <div id={hintId}>{hint}</div> : null}
    </div>
  );
}
