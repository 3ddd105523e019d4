import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { GenerationJob } from '@/types/api';
import { contentKeys } from './keys';

/** The newest 20 generation jobs. */
export function getGenerationJobs(): Promise<GenerationJob[]> {
  return api.get<{ jobs: GenerationJob[] }>('/api/admin/generation-jobs').then((body) => body.jobs);
}

export function getGenerationJobsQueryOptions() {
  return queryOptions({ queryKey: contentKeys.jobs(), queryFn: getGenerationJobs });
}

export function useGenerationJobs() {
  return useQuery(getGenerationJobsQueryOptions());
}
