import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { GENERATION_POLL_MS } from '@/config';
import { api } from '@/lib/api-client';
import type { GenerationJob, GenerationJobStatus } from '@/types/api';
import { BLOG_ROOT_KEY, contentKeys } from './keys';

const FINISHED: readonly GenerationJobStatus[] = ['succeeded', 'failed', 'cancelled'];

export function isJobFinished(status: GenerationJobStatus | undefined): boolean {
  return status !== undefined && FINISHED.includes(status);
}

export function getGenerationJob(id: number): Promise<GenerationJob> {
  return api.get<GenerationJob>(`/api/admin/generation-jobs/${id}`);
}

/** One job, read again every 2 s until it has finished. */
export function getGenerationJobQueryOptions(id: number) {
  return queryOptions({
    queryKey: contentKeys.job(id),
    queryFn: () => getGenerationJob(id),
    refetchInterval: (query) => (isJobFinished(query.state.data?.status) ? false : GENERATION_POLL_MS),
  });
}

/** Follows a job; once it has finished, the posts, the stats and the generations list are read again. */
export function useGenerationJob(id: number | null) {
  const client = useQueryClient();
  const job = useQuery({ ...getGenerationJobQueryOptions(id ?? 0), enabled: id !== null });
  const finished = isJobFinished(job.data?.status);
  useEffect(() => {
    if (!finished) return;
    void client.invalidateQueries({ queryKey: BLOG_ROOT_KEY });
    void client.invalidateQueries({ queryKey: contentKeys.stats() });
    void client.invalidateQueries({ queryKey: contentKeys.jobs() });
    void client.invalidateQueries({ queryKey: contentKeys.keywords() });
  }, [client, finished, id]);
  return job;
}
