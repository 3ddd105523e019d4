import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { PostsPerWeek, WeeklyPlan } from '@/types/api';
import { contentKeys } from './keys';

export function createWeeklyPlan(postsPerWeek: PostsPerWeek): Promise<WeeklyPlan> {
  return api.post<WeeklyPlan>('/api/admin/generate-weekly-plan', { postsPerWeek });
}

export function useCreateWeeklyPlan() {
  const client = useQueryClient();
  return useMutation<WeeklyPlan, ApiError, PostsPerWeek>({
    mutationFn: createWeeklyPlan,
    onSuccess: (plan) => {
      client.setQueryData(contentKeys.weeklyPlan(), plan);
      return client.invalidateQueries({ queryKey: contentKeys.jobs() });
    },
    // A 409 means another plan is active: show it.
    onError: () => client.invalidateQueries({ queryKey: contentKeys.weeklyPlan() }),
  });
}
