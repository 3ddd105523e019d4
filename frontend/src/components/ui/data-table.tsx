import { ChevronDownIcon, ChevronUpDownIcon, ChevronUpIcon } from '@heroicons/react/20/solid';
import { useMemo, useState, type ReactNode } from 'react';
import { TABLE_PAGE_SIZE } from '@/config';
import { cn } from '@/lib/cn';
import { useMediaQuery } from '@/lib/use-media-query';
import { Checkbox } from './checkbox';
import { Pager } from './pager';

export type SortValue = string | number | null | undefined;

export type Column<T> = {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable by this value (a table that sorts its rows itself). */
  sortValue?: (row: T) => SortValue;
  /** Makes the column sortable by the server under this key (a table paged on the server). */
  sortKey?: string;
  className?: string;
  headerClassName?: string;
};

/** The sorted column (by its id) and the direction; null until a header is clicked. */
export type SortState = { id: string; direction: 'asc' | 'desc' } | null;

/**
 * Row checkboxes: one per row, one for the page, and 'Select all N matching' for the whole list.
 * Its owner keeps the picked rows (lib/use-row-selection, lib/use-paged-selection).
 */
export type TableSelection<T> = {
  isSelected: (id: string) => boolean;
  /** How many rows are picked, on every page. */
  count: number;
  /** Picks the rows, or unpicks them. */
  toggle: (rows: readonly T[], picked: boolean) => void;
  /** 'Select all N matching'. */
  selectAll: () => void;
  clear: () => void;
  /** The accessible name of a row's checkbox: 'Select <name>'. */
  rowLabel: (row: T) => string;
};

/**
 * A table whose rows the server filters, sorts and pages: `data` is the page on screen, and the
 * owner asks for another page or order when the table says so.
 */
export type ServerPaging = {
  /** Every matching row (X-Total-Count). */
  total: number;
  /** 0-based. */
  page: number;
  onPageChange: (page: number) => void;
  sort: SortState;
  onSortChange: (sort: SortState) => void;
  /** The rows on screen are the last page's while the next one loads. */
  busy?: boolean;
};

/** The server's `sort` parameter for a sort state: the column's key, '-' first when descending. */
export function sortParam<T>(columns: readonly Column<T>[], sort: SortState): string | undefined {
  const key = sort ? columns.find((c) => c.id === sort.id)?.sortKey : undefined;
  if (!sort || !key) return undefined;
  return sort.direction === 'desc' ? `-${key}` : key;
}

type DataTableProps<T> = {
  data: readonly T[];
  columns: readonly Column<T>[];
  getRowId: (row: T) => string;
  pageSize?: number;
  initialSort?: SortState;
  emptyMessage?: ReactNode;
  /** Accessible name of the table. */
  label: string;
  /** A caption for screen readers (what the table lists). */
  caption?: string;
  className?: string;
  /** On narrow screens, each row as a card instead of a table row too wide for the screen. */
  renderCard?: (row: T) => ReactNode;
  /** Cards below this viewport width in px (default: phones, below Tailwind's `sm`). */
  cardsBelow?: number;
  selection?: TableSelection<T>;
  /** The server pages and sorts (`data` is one page); without it the table does both itself. */
  paging?: ServerPaging;
};

function compare(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null || a === undefined || a === '') return 1;
  if (b === null || b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { sensitivity: 'base', numeric: true });
}

/**
 * The generic table: sortable columns, 5 rows per page, 'Showing X to Y of Z entries'. It sorts
 * and pages `data` itself, or shows the server's page when given `paging`.
 */
export function DataTable<T>({
  data,
  columns,
  getRowId,
  pageSize = TABLE_PAGE_SIZE,
  initialSort = null,
  emptyMessage = 'No results found.',
  label,
  caption,
  className,
  renderCard,
  cardsBelow = 640,
  selection,
  paging,
}: DataTableProps<T>) {
  const narrow = useMediaQuery(`(max-width: ${cardsBelow - 1}px)`);
  const asCards = narrow && renderCard !== undefined;
  const [localSort, setLocalSort] = useState<SortState>(initialSort);
  const [localPage, setLocalPage] = useState(0);
  const serverSide = paging !== undefined;
  const sort = paging ? paging.sort : localSort;
  const sortable = (column: Column<T>) => (serverSide ? column.sortKey !== undefined : column.sortValue !== undefined);

  const sorted = useMemo(() => {
    const column = sort ? columns.find((c) => c.id === sort.id) : undefined;
    if (serverSide || !sort || !column?.sortValue) return [...data];
    const value = column.sortValue;
    const rows = [...data].sort((a, b) => compare(value(a), value(b)));
    // Empty values stay last in both directions.
    if (sort.direction === 'desc') {
      const filled = rows.filter((r) => value(r) !== null && value(r) !== undefined && value(r) !== '');
      const empty = rows.filter((r) => !filled.includes(r));
      return [...filled.reverse(), ...empty];
    }
    return rows;
  }, [data, columns, sort, serverSide]);

  const total = paging ? paging.total : sorted.length;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = paging ? paging.page : Math.min(localPage, pageCount - 1);
  const start = current * pageSize;
  const rows = paging ? sorted : sorted.slice(start, start + pageSize);
  const setPage = paging ? paging.onPageChange : setLocalPage;
  const busy = paging?.busy === true;

  const pageIds = rows.map(getRowId);
  const pageSelected = selection ? pageIds.filter((id) => selection.isSelected(id)).length : 0;
  const pageAll = pageIds.length > 0 && pageSelected === pageIds.length;

  function togglePage() {
    selection?.toggle(rows, !pageAll);
  }

  function toggleRow(row: T) {
    selection?.toggle([row], !selection.isSelected(getRowId(row)));
  }

  const pageCheckbox = selection ? (
    <Checkbox
      aria-label="Select all on this page"
      checked={pageAll}
      indeterminate={pageSelected > 0 && !pageAll}
      onChange={togglePage}
    />
  ) : null;
  const rowCheckbox = (row: T) =>
    selection ? (
      <Checkbox
        aria-label={selection.rowLabel(row)}
        checked={selection.isSelected(getRowId(row))}
        onChange={() => toggleRow(row)}
      />
    ) : null;
  const shownColumns: readonly Column<T>[] = selection
    ? [{ id: '__select', header: pageCheckbox, cell: rowCheckbox, className: 'w-10', headerClassName: 'w-10' }, ...columns]
    : columns;

  function toggleSort(id: string) {
    const next: SortState =
      sort?.id === id ? { id, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { id, direction: 'asc' };
    if (paging) {
      // The owner starts again at the first page of the new order.
      paging.onSortChange(next);
    } else {
      setLocalSort(next);
      setLocalPage(0);
    }
  }

  return (
    <div className={cn('overflow-hidden rounded-xl border border-slate-200 bg-white', className)}>
      {selection ? (
        <SelectionNotice
          pageAll={pageAll}
          pageCount={pageIds.length}
          selectedCount={selection.count}
          total={total}
          onSelectAll={selection.selectAll}
          onClear={selection.clear}
        />
      ) : null}
      {asCards && selection && rows.length > 0 ? (
        <label className="flex items-center gap-3 border-b border-slate-100 bg-slate-50 px-3 py-2 text-sm text-slate-600 sm:px-4">
          {pageCheckbox}
          <span aria-hidden>Select all on this page</span>
        </label>
      ) : null}
      {asCards ? (
        <ul
          aria-label={label}
          aria-busy={busy || undefined}
          className={cn('divide-y divide-slate-100 transition-opacity', busy && 'opacity-60')}
        >
          {rows.length === 0 ? (
            <li className="px-4 py-10 text-center text-sm text-slate-500">{emptyMessage}</li>
          ) : (
            rows.map((row) => (
              <li key={getRowId(row)} className="flex items-start gap-3 px-3 py-3 text-sm text-slate-700 sm:px-4">
                {selection ? <div className="pt-1">{rowCheckbox(row)}</div> : null}
                <div className="min-w-0 flex-1">{renderCard(row)}</div>
              </li>
            ))
          )}
        </ul>
      ) : (
        <>
          {/* relative: keeps the sr-only labels inside the scroller from widening the page */}
          <div className="relative overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label={label} aria-busy={busy || undefined}>
              {caption ? <caption className="sr-only">{caption}</caption> : null}
              <thead className="bg-slate-50">
                <tr>
                  {shownColumns.map((column) => {
                    const active = sort?.id === column.id;
                    const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined;
                    return (
                      <th
                        key={column.id}
                        scope="col"
                        aria-sort={sortable(column) ? (ariaSort ?? 'none') : undefined}
                        className={cn(
                          'px-3 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-600 uppercase',
                          column.headerClassName,
                        )}
                      >
                        {sortable(column) ? (
                          <button
                            type="button"
                            onClick={() => toggleSort(column.id)}
                            className="group inline-flex items-center gap-1 uppercase hover:text-slate-900"
                          >
                            {column.header}
                            {active && sort.direction === 'asc' ? (
                              <ChevronUpIcon aria-hidden className="size-4 print:hidden" />
                            ) : active ? (
                              <ChevronDownIcon aria-hidden className="size-4 print:hidden" />
                            ) : (
                              <ChevronUpDownIcon aria-hidden className="size-4 opacity-40 group-hover:opacity-100 print:hidden" />
                            )}
                          </button>
                        ) : (
                          column.header
                        )}
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody className={cn('divide-y divide-slate-100 transition-opacity', busy && 'opacity-60')}>
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={shownColumns.length} className="px-3 py-10 text-center text-slate-500">
                      {emptyMessage}
                    </td>
                  </tr>
                ) : (
                  rows.map((row) => (
                    <tr key={getRowId(row)} className="hover:bg-slate-50/70">
                      {shownColumns.map((column) => (
                        <td key={column.id} className={cn('px-3 py-3 align-middle text-slate-700', column.className)}>
                          {column.cell(row)}
                        </td>
                      ))}
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Pager total={total} page={current} onPageChange={setPage} pageSize={pageSize} />
    </div>
  );
}

type SelectionNoticeProps = {
  pageAll: boolean;
  pageCount: number;
  selectedCount: number;
  total: number;
  onSelectAll: () => void;
  onClear: () => void;
};

/** Once a whole page is picked: offer the whole list ('Select all N matching'), or say it is picked. */
function SelectionNotice({ pageAll, pageCount, selectedCount, total, onSelectAll, onClear }: SelectionNoticeProps) {
  if (total <= pageCount) return null;
  const allSelected = selectedCount >= total;
  if (!allSelected && !pageAll) return null;
  return (
    <div className="flex flex-wrap items-center justify-center gap-x-2 gap-y-1 border-b border-blue-100 bg-blue-50 px-4 py-2 text-sm text-blue-900">
      {allSelected ? (
        <>
          <span>All {total} matching are selected.</span>
          <button type="button" onClick={onClear} className="font-medium text-blue-700 underline hover:text-blue-900">
            Clear selection
          </button>
        </>
      ) : (
        <>
          <span>All {pageCount} on this page are selected.</span>
          <button type="button" onClick={onSelectAll} className="font-medium text-blue-700 underline hover:text-blue-900">
            Select all {total} matching
          </button>
        </>
      )}
    </div>
  );
}
