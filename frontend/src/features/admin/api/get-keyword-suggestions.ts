import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KEYWORD_SUGGESTION_COUNT } from '@/config';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { contentKeys } from './keys';

/** Unused keywords, best first (the server's built-in set when none is unused). */
export function getKeywordSuggestions(count: number): Promise<string[]> {
  return api.get<string[]>('/api/admin/suggest-keywords', { params: { count } });
}

export function getKeywordSuggestionsQueryOptions(count = KEYWORD_SUGGESTION_COUNT) {
  return queryOptions({ queryKey: contentKeys.suggestions(count), queryFn: () => getKeywordSuggestions(count) });
}

export function useKeywordSuggestions(count = KEYWORD_SUGGESTION_COUNT) {
  return useQuery(getKeywordSuggestionsQueryOptions(count));
}

/** Suggest keywords on demand (a button): asks the server again and shares the answer with the panel. */
export function useSuggestKeywords(count = KEYWORD_SUGGESTION_COUNT) {
  const client = useQueryClient();
  return useMutation<string[], ApiError, void>({
    mutationFn: () => client.fetchQuery(getKeywordSuggestionsQueryOptions(count)),
  });
}
