import { useCallback, useMemo, useState } from 'react';
import type { TableSelection } from '@/components/ui/data-table';

/**
 * The rows picked in a list that the browser holds whole. Only ids still in `rows` count, so rows
 * that a filter hides or a delete removes drop out of the selection by themselves. `ids` keeps
 * the list's order. (A list paged on the server: lib/use-paged-selection.)
 */
export function useRowSelection<T>(rows: readonly T[], getId: (row: T) => string) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  const rowIds = useMemo(() => rows.map(getId), [rows, getId]);
  const ids = useMemo(() => rowIds.filter((id) => picked.has(id)), [rowIds, picked]);
  const clear = useCallback(() => setPicked(new Set()), []);
  const table = useMemo<Omit<TableSelection<T>, 'rowLabel'>>(() => {
    const selected = new Set(ids);
    return {
      isSelected: (id) => selected.has(id),
      count: ids.length,
      toggle: (toggled, on) =>
        setPicked((prev) => {
          const next = new Set(prev);
          for (const row of toggled) {
            if (on) next.add(getId(row));
            else next.delete(getId(row));
          }
          return next;
        }),
      selectAll: () => setPicked(new Set(rowIds)),
      clear,
    };
  }, [ids, rowIds, getId, clear]);
  return { ids, clear, table };
}
