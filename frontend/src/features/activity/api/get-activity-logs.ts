import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { TABLE_PAGE_SIZE } from '@/config';
import { api } from '@/lib/api-client';
import { scopedKey } from '@/lib/query-keys';
import type { ActivityEntry, Page } from '@/types/api';

export type ActivityPageParams = {
  limit: number;
  offset: number;
  /** Text in the description. */
  q?: string;
  /** One activity type (`document_uploaded`); none means every type. */
  type?: string;
  /** One person's changes (a member's id); none means everyone's. */
  actor?: string;
};

export const activityKeys = {
  all: () => scopedKey('activity'),
  list: (limit?: number) => [...activityKeys.all(), 'list', { limit: limit ?? null }] as const,
  page: (params: ActivityPageParams) => [...activityKeys.all(), 'page', params] as const,
};

/** Newest first; the dashboard asks for the last 4. */
export function getActivityLogs(limit?: number): Promise<ActivityEntry[]> {
  return api.get<ActivityEntry[]>('/api/activity-logs', { params: { limit } });
}

export function getActivityLogsQueryOptions(limit?: number) {
  return queryOptions({ queryKey: activityKeys.list(limit), queryFn: () => getActivityLogs(limit) });
}

export function useActivityLogs(limit?: number) {
  return useQuery(getActivityLogsQueryOptions(limit));
}

/** The first page, every type, no search: what the Activity Log shows when it opens. */
export const FIRST_ACTIVITY_PAGE: ActivityPageParams = { limit: TABLE_PAGE_SIZE, offset: 0 };

/** One page of the entries matching a search and a type, newest first; the total is X-Total-Count. */
export function getActivityPage(params: ActivityPageParams, signal?: AbortSignal): Promise<Page<ActivityEntry>> {
  return api.page<ActivityEntry>('/api/activity-logs', { params, signal });
}

export function getActivityPageQueryOptions(params: ActivityPageParams) {
  return queryOptions({
    queryKey: activityKeys.page(params),
    queryFn: ({ signal }) => getActivityPage(params, signal),
    // The page on screen stays while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useActivityPage(params: ActivityPageParams) {
  return useQuery(getActivityPageQueryOptions(params));
}
