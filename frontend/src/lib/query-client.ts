import { QueryClient, type DefaultOptions, type Query } from '@tanstack/react-query';

/**
 * A visit: a page on screen, from the navigation that opened it to the next one (the router starts
 * each, app/router.tsx). Each query's data is marked with the visit it came in.
 */
let visit = 0;
const cameIn = new WeakMap<Query, number>();

/** A navigation opens a page: what earlier pages read is asked for again when it is shown. */
export function startVisit() {
  visit += 1;
}

/**
 * Whether a query is read again when a component showing it mounts: not when its data came in this
 * visit. A page's route loader (or the entry's early read) reads for the page, and the page's hooks,
 * mounting after it, would otherwise read again; so would a part of the page that mounts later, and
 * StrictMode's second mount. Data from an earlier visit, or invalidated (as a failed read leaves
 * it), is read again, as are new keys (another page of a list, another sort): staleTime stays 0.
 */
function notReadThisVisit(query: Query): boolean {
  return cameIn.get(query) !== visit || query.state.isInvalidated;
}

/**
 * Cached data is stale at once (a screen that opens fetches again, once: notReadThisVisit); no
 * refetch on focus or on a timer; no retries of reads or writes (docs/product.md, "Screens").
 */
export const queryConfig = {
  queries: {
    staleTime: 0,
    refetchOnMount: notReadThisVisit,
    refetchOnWindowFocus: false,
    refetchInterval: false,
    retry: false,
  },
  mutations: {
    retry: false,
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  const client = new QueryClient({ defaultOptions: queryConfig });
  // New data, from the server or written by the app, belongs to the visit it came in.
  client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') cameIn.set(event.query, visit);
  });
  return client;
}

export const queryClient = createQueryClient();

declare module '@tanstack/react-query' {
  interface Register {
    /** Every fetcher goes through the API client, which only throws ApiError. */
    defaultError: import('./api-error').ApiError;
  }
}
