import { useMemo } from 'react';
import { sortParam, type Column } from '@/components/ui/data-table';
import { TABLE_PAGE_SIZE } from '@/config';
import type { VendorStatusFilter } from '@/lib/domain/vendors';
import { pagingOf, useListControls } from '@/lib/use-list-controls';
import type { Vendor } from '@/types/api';
import { useVendorPage, type VendorPageParams } from '../api/get-vendors';

/**
 * A vendor list paged on the server: the search box and status filter, the page on screen, and
 * what the table needs to turn pages and sort by `columns`' sort keys.
 */
export function useVendorList(columns: readonly Column<Vendor>[]) {
  const list = useListControls<VendorStatusFilter>('all');
  const { query, filter, sort, offset } = list;
  const params = useMemo<VendorPageParams>(
    () => ({
      limit: TABLE_PAGE_SIZE,
      offset,
      q: query || undefined,
      status: filter === 'all' || filter === 'gaps' ? undefined : filter,
      gaps: filter === 'gaps' ? true : undefined,
      sort: sortParam(columns, sort),
    }),
    [columns, query, filter, sort, offset],
  );
  const vendors = useVendorPage(params);
  const { paging, answered } = pagingOf(list, vendors);
  return {
    list,
    params,
    vendors,
    paging,
    /** The page on screen once it is the server's answer for `params` (not the last one kept on show). */
    answered,
  };
}
