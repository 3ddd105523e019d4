import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { integrationKeys } from './keys';
import type { CalendarFeed } from './types';

/** Replaces the feed's address: the old one stops working at once. */
export function rotateCalendarFeed(): Promise<CalendarFeed> {
  return api.post<CalendarFeed>('/api/calendar-feed/rotate');
}

export function useRotateCalendarFeed() {
  const client = useQueryClient();
  return useMutation<CalendarFeed, ApiError, void>({
    mutationFn: rotateCalendarFeed,
    onSuccess: (feed) => client.setQueryData(integrationKeys.calendarFeed(), feed),
  });
}
