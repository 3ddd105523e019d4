import { DocumentArrowUpIcon } from '@heroicons/react/24/outline';
import { useEffect, useId, useRef } from 'react';
import { cn } from '@/lib/cn';
import { ACCEPTED_FILE_TYPES, ACCEPTED_FORMATS_TEXT } from '@/lib/domain/documents';
import { formatFileSize } from '@/lib/format';

type FilePickerProps = {
  file: File | null;
  onChange: (file: File | null) => void;
  error?: string;
  disabled?: boolean;
  label?: string;
  /** The input's accept list (by default every accepted format: ACCEPTED_FILE_TYPES). */
  accept?: string;
  hint?: string;
};

/** A file input with a drop zone look; keyboard and screen readers use the real input. */
export function FilePicker({
  file,
  onChange,
  error,
  disabled,
  label = 'File',
  accept = ACCEPTED_FILE_TYPES,
  hint = `${ACCEPTED_FORMATS_TEXT}, up to 10MB`,
}: FilePickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // A cleared selection (after an upload) must clear the native input too, or it keeps the old name.
  useEffect(() => {
    if (!file && input.current) input.current.value = '';
  }, [file]);
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          if (!disabled) onChange(e.dataTransfer.files[0] ?? null);
        }}
        className={cn(
          'flex flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center',
          error ? 'border-red-300 bg-red-50/50' : 'border-slate-300 bg-slate-50',
        )}
      >
        <DocumentArrowUpIcon aria-hidden className="size-8 text-slate-400" />
        <input
          ref={input}
          id={id}
          type="file"
          accept={accept}
          disabled={disabled}
          aria-invalid={Boolean(error)}
          onChange={(e) => onChange(e.target.files?.[0] ?? null)}
          className="max-w-full rounded-md text-sm text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 file:mr-3 file:rounded-md file:border-0 file:bg-blue-600 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-white hover:file:bg-blue-700"
        />
        {file ? (
          <p className="text-xs text-slate-600">
            {file.name} · {formatFileSize(file.size)}
          </p>
        ) : null}
        <p className="text-xs text-slate-500">{hint}</p>
      </div>
      {error ? (
        <p className="text-sm text-red-600" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
