import { ExclamationTriangleIcon } from '@heroicons/react/20/solid';
import { useId, type ReactNode } from 'react';
import { Field, Input } from '@/components/ui/field';
import { CopyButton } from './copy-button';

type CopyFieldProps = {
  label: string;
  value: string;
  /** What is copied, for the Copy button ('API key'). */
  what: string;
  hint?: ReactNode;
  /**
   * A secret shown this once: the warning says so above the value, and the Copy button, which
   * has the focus, is described by it.
   */
  warning?: string;
  className?: string;
};

/** A read-only value (a key, a secret, a link) with a Copy button; focusing it selects it all. */
export function CopyField({ label, value, what, hint, warning, className }: CopyFieldProps) {
  const warningId = useId();
  return (
    <div className={className}>
      {warning ? (
        <p
          id={warningId}
          className="mb-3 flex gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm font-medium text-amber-900"
        >
          <ExclamationTriangleIcon aria-hidden className="size-5 shrink-0 text-amber-600" />
          {warning}
        </p>
      ) : null}
      <Field label={label} hint={hint}>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            value={value}
            readOnly
            spellCheck={false}
            onFocus={(event) => event.currentTarget.select()}
            className="bg-slate-50! font-mono"
          />
          <div className="shrink-0">
            <CopyButton
              value={value}
              what={what}
              autoFocus={Boolean(warning)}
              aria-describedby={warning ? warningId : undefined}
            />
          </div>
        </div>
      </Field>
    </div>
  );
}
