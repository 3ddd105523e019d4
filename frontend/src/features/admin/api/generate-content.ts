import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { GenerateContentInput } from '@/types/api';
import { contentKeys } from './keys';

/** Queues an AI draft (202); the job is then followed with GET /api/admin/generation-jobs/{id}. */
export function generateContent(input: GenerateContentInput): Promise<{ jobId: number }> {
  return api.post<{ jobId: number }>('/api/admin/generate-content', input);
}

export function useGenerateContent() {
  const client = useQueryClient();
  return useMutation<{ jobId: number }, ApiError, GenerateContentInput>({
    mutationFn: generateContent,
    onSuccess: () => client.invalidateQueries({ queryKey: contentKeys.jobs() }),
    // The server may have lost its key since the page read it: let the page say so too.
    onError: () => client.invalidateQueries({ queryKey: contentKeys.stats() }),
  });
}
