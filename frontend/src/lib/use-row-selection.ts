import { useCallback, useMemo, useState } from 'react';

/**
 * The rows picked in a list. Only ids still in `rowIds` count, so rows that a filter hides or a
 * delete removes drop out of the selection by themselves. `ids` keeps the list's order.
 */
export function useRowSelection(rowIds: readonly string[]) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  const ids = useMemo(() => rowIds.filter((id) => picked.has(id)), [rowIds, picked]);
  const selected = useMemo<ReadonlySet<string>>(() => new Set(ids), [ids]);
  const clear = useCallback(() => setPicked(new Set()), []);
  return { selected, ids, setSelected: setPicked, clear };
}

export type RowSelection = ReturnType<typeof useRowSelection>;
