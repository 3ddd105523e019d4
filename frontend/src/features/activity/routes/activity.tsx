import { ClipboardDocumentListIcon } from '@heroicons/react/24/outline';
import { useMemo, useState } from 'react';
import { PageHeader } from '@/components/layouts/page-header';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Pager } from '@/components/ui/pager';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { SearchInput } from '@/components/ui/search-input';
import { Select } from '@/components/ui/select';
import { TABLE_PAGE_SIZE } from '@/config';
import { useMembers } from '@/lib/api/team-members';
import { cn } from '@/lib/cn';
import { pagingOf, useListControls } from '@/lib/use-list-controls';
import { useActivityPage, type ActivityPageParams } from '../api/get-activity-logs';
import { ACTIVITY_STYLES, ActivityRow } from '../components/activity-row';

const typeOptions = [
  { value: 'all', label: 'All Activities' },
  ...Object.entries(ACTIVITY_STYLES).map(([value, s]) => ({ value, label: s.label })),
];

/** The log, paged on the server (newest first): the search and the type go as `q` and `type`. */
export function ActivityRoute() {
  const list = useListControls<string>('all');
  const { query, filter, offset } = list;
  const [person, setPerson] = useState('all');
  const members = useMembers();
  // A team of one has nobody to tell apart.
  const people = members.data && members.data.length > 1 ? members.data : null;
  const personOptions = useMemo(
    () => [{ value: 'all', label: 'Everyone' }, ...(people ?? []).map((m) => ({ value: m.id, label: m.name }))],
    [people],
  );
  const params = useMemo<ActivityPageParams>(
    () => ({
      limit: TABLE_PAGE_SIZE,
      offset,
      q: query || undefined,
      type: filter === 'all' ? undefined : filter,
      actor: person === 'all' ? undefined : person,
    }),
    [query, filter, offset, person],
  );
  const activity = useActivityPage(params);
  const { paging } = pagingOf(list, activity);

  return (
    <>
      <PageHeader title="Activity Log" description="Everything that happened to your vendors and their documents" />
      <div className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row">
          <SearchInput value={list.search} onChange={list.setSearch} placeholder="Search activities..." className="flex-1" />
          <Select
            label="Filter by activity type"
            hideLabel
            value={list.filter}
            onChange={list.setFilter}
            options={typeOptions}
            className="sm:w-56"
          />
          {people ? (
            <Select
              label="Filter by person"
              hideLabel
              value={person}
              onChange={(next) => {
                setPerson(next);
                list.setPage(0);
              }}
              options={personOptions}
              className="sm:w-56"
            />
          ) : null}
        </div>
        {activity.isPending ? (
          <LoadingBlock label="Loading activity" />
        ) : activity.isError ? (
          <QueryError error={activity.error} onRetry={() => void activity.refetch()} />
        ) : activity.data.total === 0 ? (
          <EmptyState icon={ClipboardDocumentListIcon} title="No activities found" headingLevel={2} />
        ) : (
          <Card className="px-5">
            <ul
              className={cn('divide-y divide-slate-100 transition-opacity', paging?.busy && 'opacity-60')}
              aria-label="Activities"
              aria-busy={paging?.busy || undefined}
            >
              {activity.data.items.map((entry) => (
                <ActivityRow key={entry.id} entry={entry} />
              ))}
            </ul>
            {paging ? (
              <Pager
                className="-mx-5"
                padding="px-5"
                total={paging.total}
                page={paging.page}
                onPageChange={paging.onPageChange}
              />
            ) : null}
          </Card>
        )}
      </div>
    </>
  );
}

export default ActivityRoute;
