import { ClipboardDocumentListIcon } from '@heroicons/react/24/outline';
import { useMemo, useState } from 'react';
import { PageHeader } from '@/components/layouts/page-header';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { SearchInput } from '@/components/ui/search-input';
import { Select } from '@/components/ui/select';
import { useActivityLogs } from '../api/get-activity-logs';
import { ACTIVITY_STYLES, ActivityRow } from '../components/activity-row';

const typeOptions = [
  { value: 'all', label: 'All Activities' },
  ...Object.entries(ACTIVITY_STYLES).map(([value, s]) => ({ value, label: s.label })),
];

export function ActivityRoute() {
  const activity = useActivityLogs();
  const [search, setSearch] = useState('');
  const [type, setType] = useState('all');
  const entries = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (activity.data ?? []).filter(
      (e) => (type === 'all' || e.activityType === type) && (!needle || e.description.toLowerCase().includes(needle)),
    );
  }, [activity.data, search, type]);

  return (
    <>
      <PageHeader title="Activity Log" description="Everything that happened to your vendors and their documents" />
      <div className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row">
          <SearchInput value={search} onChange={setSearch} placeholder="Search activities..." className="flex-1" />
          <Select
            label="Filter by activity type"
            hideLabel
            value={type}
            onChange={setType}
            options={typeOptions}
            className="sm:w-56"
          />
        </div>
        {activity.isPending ? (
          <LoadingBlock label="Loading activity" />
        ) : activity.isError ? (
          <QueryError error={activity.error} onRetry={() => void activity.refetch()} />
        ) : entries.length === 0 ? (
          <EmptyState icon={ClipboardDocumentListIcon} title="No activities found" headingLevel={2} />
        ) : (
          <Card className="px-5">
            <ul className="divide-y divide-slate-100" aria-label="Activities">
              {entries.map((entry) => (
                <ActivityRow key={entry.id} entry={entry} />
              ))}
            </ul>
          </Card>
        )}
      </div>
    </>
  );
}

export default ActivityRoute;
