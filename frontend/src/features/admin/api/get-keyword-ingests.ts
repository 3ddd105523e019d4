import { queryOptions, useQueries } from '@tanstack/react-query';
import { KEYWORD_POLL_MS } from '@/config';
import { api } from '@/lib/api-client';
import type { KeywordIngest } from '@/types/api';
import { contentKeys } from './keys';

export function getKeywordIngest(id: number): Promise<KeywordIngest> {
  return api.get<KeywordIngest>(`/api/admin/keyword-ingests/${id}`);
}

/** One upload's ingest, read again every 5 s until it is done. */
export function getKeywordIngestQueryOptions(id: number) {
  return queryOptions({
    queryKey: contentKeys.ingest(id),
    queryFn: () => getKeywordIngest(id),
    refetchInterval: (query) => (query.state.data?.done ? false : KEYWORD_POLL_MS),
  });
}

/** The ingests of an upload's chunks, summed. */
export function useKeywordIngests(ids: readonly number[]) {
  return useQueries({
    queries: ids.map(getKeywordIngestQueryOptions),
    combine: (results) => {
      const ingests = results.flatMap((result) => (result.data ? [result.data] : []));
      return {
        chunks: ingests.reduce((sum, ingest) => sum + ingest.chunks, 0),
        chunksDone: ingests.reduce((sum, ingest) => sum + ingest.chunksDone, 0),
        inserted: ingests.reduce((sum, ingest) => sum + ingest.inserted, 0),
        merged: ingests.reduce((sum, ingest) => sum + ingest.merged, 0),
        /** Every ingest has answered and is done. */
        done: ingests.length === ids.length && ingests.every((ingest) => ingest.done),
        error: results.find((result) => result.error)?.error ?? null,
      };
    },
  });
}
