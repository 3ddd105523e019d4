import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import type { WeeklyPlan } from '@/types/api';
import { contentKeys } from './keys';

/** Cancels the active plan and its scheduled posts. */
export function cancelWeeklyPlan(): Promise<WeeklyPlan> {
  return api.delete<WeeklyPlan>('/api/admin/weekly-plan');
}

export function useCancelWeeklyPlan() {
  const client = useQueryClient();
  return useMutation<WeeklyPlan, ApiError, void>({
    mutationFn: cancelWeeklyPlan,
    onSuccess: (plan) => {
      client.setQueryData(contentKeys.weeklyPlan(), plan);
      return client.invalidateQueries({ queryKey: contentKeys.jobs() });
    },
    onError: () => client.invalidateQueries({ queryKey: contentKeys.weeklyPlan() }),
  });
}
