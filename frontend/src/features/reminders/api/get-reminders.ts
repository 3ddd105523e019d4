import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { scopedKey } from '@/lib/query-keys';
import type { Reminder } from '@/types/api';

export const reminderKeys = {
  all: () => scopedKey('reminders'),
  list: () => [...reminderKeys.all(), 'list'] as const,
};

export function getReminders(): Promise<Reminder[]> {
  return api.get<Reminder[]>('/api/reminders');
}

export function getRemindersQueryOptions() {
  return queryOptions({ queryKey: reminderKeys.list(), queryFn: getReminders });
}

export function useReminders() {
  return useQuery(getRemindersQueryOptions());
}
