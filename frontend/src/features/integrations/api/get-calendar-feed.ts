import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { integrationKeys } from './keys';
import type { CalendarFeed } from './types';

/** The organization's calendar feed address (an .ics file of every document's expiration date). */
export function getCalendarFeed(): Promise<CalendarFeed> {
  return api.get<CalendarFeed>('/api/calendar-feed');
}

export function getCalendarFeedQueryOptions() {
  return queryOptions({ queryKey: integrationKeys.calendarFeed(), queryFn: getCalendarFeed });
}

export function useCalendarFeed() {
  return useQuery(getCalendarFeedQueryOptions());
}
