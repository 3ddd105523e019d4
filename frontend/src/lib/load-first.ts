import type { FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import type { ApiError } from './api-error';
import { queryClient } from './query-client';

/**
 * For a route loader: the page's data before the page first shows, so that it does not come in
 * after the page and move what is drawn (a loading block, then the list pushing the footer down).
 * Once cached, nothing is awaited (the page reads it again itself). Never throws: the page shows
 * a failure.
 */
export async function loadFirst<TData, TKey extends QueryKey>(
  options: FetchQueryOptions<TData, ApiError, TData, TKey>,
): Promise<null> {
  if (queryClient.getQueryData(options.queryKey) === undefined) await queryClient.prefetchQuery(options);
  return null;
}
