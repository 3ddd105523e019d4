import { XMarkIcon } from '@heroicons/react/20/solid';
import type { ReactNode } from 'react';
import { BULK_ID_LIMIT } from '@/config';
import { Button } from './button';

type BulkActionBarProps = {
  count: number;
  onClear: () => void;
  /** The actions; they should be disabled when `tooMany`. */
  children: ReactNode;
};

/** More than one bulk call takes: the actions are refused before they are tried. */
export function tooManySelected(count: number): boolean {
  return count > BULK_ID_LIMIT;
}

/**
 * What can be done with the selected rows. Sticks to the bottom of the screen (above the phone's
 * bottom bar) while the list scrolls; shown only while something is selected.
 */
export function BulkActionBar({ count, onClear, children }: BulkActionBarProps) {
  if (count === 0) return null;
  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="sticky bottom-[calc(5rem+env(safe-area-inset-bottom))] z-20 flex flex-col gap-3 rounded-xl border border-slate-200 bg-white/95 p-3 shadow-lg backdrop-blur sm:flex-row sm:items-center sm:justify-between md:bottom-4"
    >
      <div className="flex items-center justify-between gap-3 sm:justify-start">
        <p className="text-sm font-medium text-slate-900" aria-live="polite">
          {count} selected
        </p>
        <Button variant="ghost" size="sm" onClick={onClear}>
          <XMarkIcon aria-hidden className="size-4" />
          Clear
        </Button>
      </div>
      {tooManySelected(count) ? <p className="text-sm text-amber-800">Select at most {BULK_ID_LIMIT} at a time.</p> : null}
      <div className="flex flex-wrap gap-2">{children}</div>
    </div>
  );
}
