import { PlusIcon } from '@heroicons/react/20/solid';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { COVERAGE_LINES, LINE_LABELS } from '@/lib/domain/coverage';
import type { CoverageLineKey } from '@/types/api';

/**
 * "Add a line" for the forms made of insurance lines (a requirement set, a certificate's
 * coverage): the lines not yet in the form, and the button that adds the chosen one. Nothing
 * is shown once every line is there.
 */
export function AddLinePicker({ taken, onAdd }: { taken: readonly CoverageLineKey[]; onAdd: (line: CoverageLineKey) => void }) {
  const [adding, setAdding] = useState<CoverageLineKey | ''>('');
  const unused = COVERAGE_LINES.filter((line) => !taken.includes(line));
  if (unused.length === 0) return null;
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <Select
        label="Add a line"
        value={adding}
        onChange={setAdding}
        placeholder="Choose a line"
        className="sm:flex-1"
        options={unused.map((line) => ({ value: line, label: LINE_LABELS[line] }))}
      />
      <Button
        variant="outline"
        onClick={() => {
          if (!adding) return;
          onAdd(adding);
          setAdding('');
        }}
        disabled={!adding}
      >
        <PlusIcon aria-hidden className="size-4" />
        Add line
      </Button>
    </div>
  );
}
