import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { WeeklyPlan } from '@/types/api';
import { contentKeys } from './keys';

/** The active plan, else the most recent one, else null. */
export function getWeeklyPlan(): Promise<WeeklyPlan | null> {
  return api.get<{ weeklyPlan: WeeklyPlan | null }>('/api/admin/weekly-plan').then((body) => body.weeklyPlan);
}

export function getWeeklyPlanQueryOptions() {
  return queryOptions({ queryKey: contentKeys.weeklyPlan(), queryFn: getWeeklyPlan });
}

export function useWeeklyPlan() {
  return useQuery(getWeeklyPlanQueryOptions());
}
