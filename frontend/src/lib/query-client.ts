import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

/**
 * Cached data is stale at once (a screen that opens fetches again); no refetch on focus or on a
 * timer; no retries of reads or writes (docs/product.md, "Screens").
 */
export const queryConfig = {
  queries: {
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchInterval: false,
    retry: false,
  },
  mutations: {
    retry: false,
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryConfig });
}

export const queryClient = createQueryClient();

declare module '@tanstack/react-query' {
  interface Register {
    /** Every fetcher goes through the API client, which only throws ApiError. */
    defaultError: import('./api-error').ApiError;
  }
}
