import { queryOptions, useQuery } from '@tanstack/react-query';
import { KEYWORD_POLL_MS } from '@/config';
import { api } from '@/lib/api-client';
import type { KeywordCount } from '@/types/api';
import { contentKeys } from './keys';

export function getKeywordCount(): Promise<KeywordCount> {
  return api.get<KeywordCount>('/api/admin/keywords/count');
}

export function getKeywordCountQueryOptions() {
  return queryOptions({ queryKey: contentKeys.keywordCount(), queryFn: getKeywordCount });
}

/** The number of keywords; read again every 5 s while `poll` (an upload is being ingested). */
export function useKeywordCount({ poll = false }: { poll?: boolean } = {}) {
  return useQuery({ ...getKeywordCountQueryOptions(), refetchInterval: poll ? KEYWORD_POLL_MS : false });
}
