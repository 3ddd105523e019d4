import { useCallback, useMemo, useState } from 'react';
import type { TableSelection } from '@/components/ui/data-table';
import { toast } from '@/components/ui/toast';
import { BULK_ID_LIMIT } from '@/config';

/**
 * What is picked: rows, kept with their ids so that a page change keeps them; or, after 'Select
 * all N matching' of more rows than one bulk call takes, every matching row but the ones unticked
 * since (their ids are never downloaded: no bulk action takes that many).
 */
type Picked<T> =
  { scope: string; every: false; rows: ReadonlyMap<string, T> } | { scope: string; every: true; excluded: ReadonlySet<string> };

type PagedSelectionOptions<T> = {
  getId: (row: T) => string;
  /** The search and filter the rows match: when it changes, nothing is picked any more. */
  scope: string;
  /** How many rows match (X-Total-Count). */
  total: number;
  /** The page on screen, once it is the server's answer for it (not the last page kept on show). */
  page: { key: string; rows: readonly T[] } | undefined;
  /** The first `limit` matching rows, in the list's order: for 'Select all N matching'. */
  fetchMatching: (limit: number) => Promise<T[]>;
};

const nothing = <T>(scope: string): Picked<T> => ({ scope, every: false, rows: new Map() });

/**
 * The rows picked in a list that the server pages. The picks survive a page change and a new
 * sort order, and go when the search or the filter changes (`scope`). 'Select all N matching'
 * downloads the matching rows once, when it is clicked, if one bulk call can take them; beyond
 * that, it stands for all of them without their ids, and the bulk actions stay off (`complete`).
 * A row that leaves the page on screen when it is read again (deleted, or no longer matching)
 * leaves the selection too.
 */
export function usePagedSelection<T>({ getId, scope, total, page, fetchMatching }: PagedSelectionOptions<T>) {
  const [state, setState] = useState<Picked<T>>(() => nothing(scope));
  const picked = useMemo(() => (state.scope === scope ? state : nothing<T>(scope)), [state, scope]);

  const pageIds = page ? page.rows.map(getId) : null;
  const [seen, setSeen] = useState<{ key: string; ids: readonly string[] } | null>(null);
  if (page && pageIds && (seen?.key !== page.key || !sameIds(seen.ids, pageIds))) {
    const vanished = seen?.key === page.key ? seen.ids.filter((id) => !pageIds.includes(id)) : [];
    setSeen({ key: page.key, ids: pageIds });
    if (vanished.length > 0) setState((prev) => (prev.scope === scope ? without(prev, vanished) : prev));
  }

  const pickMatching = useCallback(
    (limit: number, excluded: ReadonlySet<string> = new Set()) => {
      fetchMatching(limit).then(
        (rows) =>
          setState((prev) =>
            prev.scope === scope
              ? { scope, every: false, rows: new Map(rows.filter((r) => !excluded.has(getId(r))).map((r) => [getId(r), r])) }
              : prev,
          ),
        (error: unknown) =>
          toast({
            title: 'Error',
            description: `Failed to select all matching: ${error instanceof Error ? error.message : String(error)}`,
            variant: 'error',
          }),
      );
    },
    [fetchMatching, getId, scope],
  );

  const count = picked.every ? Math.max(0, total - picked.excluded.size) : picked.rows.size;
  const ids = useMemo(() => (picked.every ? [] : [...picked.rows.keys()]), [picked]);
  const rows = useMemo(() => (picked.every ? [] : [...picked.rows.values()]), [picked]);
  const clear = useCallback(() => setState(nothing(scope)), [scope]);

  const table = useMemo<Omit<TableSelection<T>, 'rowLabel'>>(
    () => ({
      isSelected: (id) => (picked.every ? !picked.excluded.has(id) : picked.rows.has(id)),
      count,
      toggle: (toggled, on) => {
        if (picked.every) {
          const excluded = new Set(picked.excluded);
          for (const row of toggled) {
            if (on) excluded.delete(getId(row));
            else excluded.add(getId(row));
          }
          setState({ ...picked, excluded });
          // Unticked down to what one bulk call takes: now the ids are wanted.
          if (total - excluded.size <= BULK_ID_LIMIT) pickMatching(total, excluded);
          return;
        }
        const next = new Map(picked.rows);
        for (const row of toggled) {
          if (on) next.set(getId(row), row);
          else next.delete(getId(row));
        }
        setState({ ...picked, rows: next });
      },
      selectAll: () => {
        if (total > BULK_ID_LIMIT) setState({ scope, every: true, excluded: new Set() });
        else pickMatching(total);
      },
      clear,
    }),
    [picked, count, total, scope, getId, pickMatching, clear],
  );

  return {
    /** The picked ids in the order they were picked; empty while `complete` is false. */
    ids,
    /** The picked rows, as they were read when picked. */
    rows,
    count,
    /** Whether `ids` holds every picked row (not so after selecting more matching rows than a bulk call takes). */
    complete: !picked.every,
    clear,
    table,
  };
}

function sameIds(a: readonly string[], b: readonly string[]) {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function without<T>(picked: Picked<T>, gone: readonly string[]): Picked<T> {
  if (picked.every) {
    // A row that has gone is not counted among the matching any more: nor among the unticked.
    const excluded = new Set(picked.excluded);
    gone.forEach((id) => excluded.delete(id));
    return { ...picked, excluded };
  }
  const rows = new Map(picked.rows);
  gone.forEach((id) => rows.delete(id));
  return { ...picked, rows };
}
