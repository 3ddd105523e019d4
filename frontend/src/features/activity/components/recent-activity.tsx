import { Link } from 'react-router';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { RECENT_ACTIVITY_LIMIT } from '@/config';
import { useActivityLogs } from '../api/get-activity-logs';
import { ActivityRow } from './activity-row';

/** The latest RECENT_ACTIVITY_LIMIT (4) entries with a link to the whole log. */
export function RecentActivity({ className }: { className?: string }) {
  const activity = useActivityLogs(RECENT_ACTIVITY_LIMIT);
  const entries = (activity.data ?? []).slice(0, RECENT_ACTIVITY_LIMIT);
  return (
    <Card className={className}>
      <CardHeader
        title="Recent Activity"
        action={
          <Link to="/activity" className="text-sm font-medium text-blue-600 hover:text-blue-700">
            View All
          </Link>
        }
      />
      <div className="px-5 pb-2">
        {activity.isPending ? (
          <LoadingBlock label="Loading activity" />
        ) : activity.isError ? (
          <div className="py-4">
            <QueryError error={activity.error} onRetry={() => void activity.refetch()} />
          </div>
        ) : entries.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-500">No recent activity</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {entries.map((entry) => (
              <ActivityRow key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
