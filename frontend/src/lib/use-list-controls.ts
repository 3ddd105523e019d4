import { useCallback, useState } from 'react';
import type { ServerPaging, SortState } from '@/components/ui/data-table';
import { SEARCH_DEBOUNCE_MS, TABLE_PAGE_SIZE } from '@/config';
import type { Page } from '@/types/api';
import { useDebouncedValue } from './use-debounced-value';

/**
 * The search box, the filter, the sort and the page of a list paged on the server. The search
 * is asked for once typing pauses (`query`); a new query, filter or sort starts at the first page.
 * `initialSort`: the column shown sorted before any header is clicked (none by default).
 */
export function useListControls<F extends string>(initialFilter: F, initialSort: SortState = null) {
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [filter, setFilter] = useState<F>(initialFilter);
  const [sort, setSort] = useState<SortState>(initialSort);
  // The page belongs to the query, filter and sort it was turned for: any other starts at 0, and
  // so does going back to an earlier one (the page turned then is forgotten).
  const order = JSON.stringify([query, filter, sort]);
  const [turned, setTurned] = useState({ order, page: 0 });
  if (turned.order !== order) setTurned({ order, page: 0 });
  const page = turned.order === order ? turned.page : 0;
  const setPage = useCallback((next: number) => setTurned({ order, page: next }), [order]);

  return {
    search,
    setSearch,
    /** The trimmed search text the list is asked for. */
    query,
    filter,
    setFilter,
    sort,
    setSort,
    page,
    setPage,
    offset: page * TABLE_PAGE_SIZE,
    /** Whether a search or a filter narrows the list (the empty states say so). */
    filtered: query !== '' || filter !== initialFilter,
    /** What a selection belongs to: the rows a query and filter match, in any order. */
    selectionScope: JSON.stringify([query, filter]),
    /**
     * After a read: a delete can empty the last page, so go back to the last page with rows.
     * Call it while rendering, with the server's answer for the page on screen.
     */
    keepInRange: (total: number) => {
      const last = Math.max(0, Math.ceil(total / TABLE_PAGE_SIZE) - 1);
      if (page > last) setPage(last);
    },
  };
}

export type ListControls<F extends string> = ReturnType<typeof useListControls<F>>;

type PagedRead<T> = { data?: Page<T>; isPlaceholderData: boolean };

/**
 * The table's side of a page read: `paging` for DataTable (busy while the last page stays on show),
 * and `answered`, the server's answer for the page asked (not the last one kept on show). Keeps the
 * page in range. Call it while rendering.
 */
export function pagingOf<T>(
  list: Pick<ListControls<string>, 'page' | 'setPage' | 'sort' | 'setSort' | 'keepInRange'>,
  read: PagedRead<T>,
): { paging: ServerPaging | undefined; answered: Page<T> | undefined } {
  const answered = read.data && !read.isPlaceholderData ? read.data : undefined;
  if (answered) list.keepInRange(answered.total);
  const paging = read.data && {
    total: read.data.total,
    page: list.page,
    onPageChange: list.setPage,
    sort: list.sort,
    onSortChange: list.setSort,
    busy: read.isPlaceholderData,
  };
  return { paging, answered };
}
