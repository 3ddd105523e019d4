import { api } from '@/lib/api-client';
import type { KeywordRow, KeywordUploadAccepted } from '@/types/api';

/** One chunk of an upload; the server checks every row and queues them for ingest (202). */
export function uploadKeywords(keywordData: KeywordRow[]): Promise<KeywordUploadAccepted> {
  return api.post<KeywordUploadAccepted>('/api/admin/keywords/upload', { keywordData });
}
