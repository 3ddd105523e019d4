import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { TABLE_PAGE_SIZE } from '@/config';
import { api } from '@/lib/api-client';
import { scopedKey } from '@/lib/query-keys';
import type { Page, Reminder } from '@/types/api';

/**
 * The server's sort keys; '-' first sorts descending. Ties go by id. `documentType` orders by the
 * stored code, `status` by severity (current, expiring soon, expired), `sent` not sent first, and
 * `expirationDate` puts none last either way.
 */
export type ReminderSortKey = 'reminderDate' | 'vendor' | 'documentType' | 'expirationDate' | 'status' | 'sent';

export type ReminderPageParams = {
  limit: number;
  offset: number;
  /** A ReminderSortKey, maybe with '-' first; the server's default is `reminderDate` (soonest first). */
  sort?: string;
};

export const reminderKeys = {
  all: () => scopedKey('reminders'),
  lists: () => [...reminderKeys.all(), 'list'] as const,
  /** One page in one order. */
  page: (params: ReminderPageParams) => [...reminderKeys.lists(), params] as const,
};

/** The first page, soonest first: what the Reminders screen shows when it opens. */
export const FIRST_REMINDER_PAGE: ReminderPageParams = {
  limit: TABLE_PAGE_SIZE,
  offset: 0,
  sort: 'reminderDate' satisfies ReminderSortKey,
};

/** One page of the reminders in an order; the total is X-Total-Count. */
export function getReminderPage(params: ReminderPageParams, signal?: AbortSignal): Promise<Page<Reminder>> {
  return api.page<Reminder>('/api/reminders', { params, signal });
}

export function getReminderPageQueryOptions(params: ReminderPageParams) {
  return queryOptions({
    queryKey: reminderKeys.page(params),
    queryFn: ({ signal }) => getReminderPage(params, signal),
    // The page on screen stays while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useReminderPage(params: ReminderPageParams) {
  return useQuery(getReminderPageQueryOptions(params));
}
