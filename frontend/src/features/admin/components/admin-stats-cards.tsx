import {
  CheckCircleIcon,
  DocumentMagnifyingGlassIcon,
  DocumentTextIcon,
  EyeIcon,
  KeyIcon,
  PencilSquareIcon,
  SparklesIcon,
} from '@heroicons/react/24/outline';
import { StatCard } from '@/components/ui/stat-card';
import { formatUsd } from '@/lib/format';
import type { BlogStats, ContentStats } from '@/types/api';

type AdminStatsCardsProps = {
  stats: BlogStats | undefined;
  keywordCount: number | undefined;
  /** An upload is being ingested: the count is read again every 5 s. */
  ingesting: boolean;
  content: ContentStats | undefined;
};

const value = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString('en-US'));

/**
 * Keywords, the blog's posts, published, drafts and views, this month's AI generations and
 * the certificates read with AI (over every organization), each with its cost.
 */
export function AdminStatsCards({ stats, keywordCount, ingesting, content }: AdminStatsCardsProps) {
  return (
    <div className="mb-6 grid grid-cols-2 gap-4 lg:grid-cols-3">
      <StatCard
        title="Keywords"
        value={value(keywordCount)}
        icon={KeyIcon}
        color="blue"
        hint={ingesting ? 'Adding uploaded keywords...' : undefined}
      />
      <StatCard title="Total Posts" value={value(stats?.posts)} icon={DocumentTextIcon} color="blue" />
      <StatCard title="Published" value={value(stats?.published)} icon={CheckCircleIcon} color="green" />
      <StatCard title="Drafts" value={value(stats?.drafts)} icon={PencilSquareIcon} color="yellow" />
      <StatCard title="Total Views" value={value(stats?.views)} icon={EyeIcon} color="blue" />
      <StatCard
        title="Generations this month"
        value={value(content?.generationsThisMonth)}
        icon={SparklesIcon}
        color="green"
        hint={content ? `${formatUsd(content.generationCostThisMonth)} spent this month` : undefined}
      />
      <StatCard
        title="Certificates read this month"
        value={value(content?.readingsThisMonth)}
        icon={DocumentMagnifyingGlassIcon}
        color="green"
        hint={content ? `${formatUsd(content.readingCostThisMonth)} spent this month` : undefined}
      />
    </div>
  );
}
