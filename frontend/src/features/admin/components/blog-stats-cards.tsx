import { CheckCircleIcon, DocumentTextIcon, EyeIcon, PencilSquareIcon } from '@heroicons/react/24/outline';
import { StatCard } from '@/components/ui/stat-card';
import type { BlogStats } from '@/types/api';

/** Posts, published, drafts and total views of the whole blog. */
export function BlogStatsCards({ stats }: { stats: BlogStats | undefined }) {
  const value = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString('en-US'));
  return (
    <div className="mb-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
      <StatCard title="Total Posts" value={value(stats?.posts)} icon={DocumentTextIcon} color="blue" />
      <StatCard title="Published" value={value(stats?.published)} icon={CheckCircleIcon} color="green" />
      <StatCard title="Drafts" value={value(stats?.drafts)} icon={PencilSquareIcon} color="yellow" />
      <StatCard title="Total Views" value={value(stats?.views)} icon={EyeIcon} color="blue" />
    </div>
  );
}
