import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { formatDateTime, formatUsd } from '@/lib/format';
import type { GenerationJob } from '@/types/api';
import { useGenerationJobs } from '../api/get-generation-jobs';
import { JOB_STATUS_COLORS, JOB_STATUS_LABELS, postEditorPath } from '../lib/content-labels';

function tokens(job: GenerationJob): number | null {
  if (job.promptTokens === null && job.completionTokens === null) return null;
  return (job.promptTokens ?? 0) + (job.completionTokens ?? 0);
}

function StatusCell({ job }: { job: GenerationJob }) {
  return (
    <div className="min-w-0">
      <Badge color={JOB_STATUS_COLORS[job.status]}>{JOB_STATUS_LABELS[job.status]}</Badge>
      {job.status === 'failed' && job.error ? (
        <p className="mt-1 max-w-64 text-xs break-words text-red-600">{job.error}</p>
      ) : null}
    </div>
  );
}

function PostLink({ job }: { job: GenerationJob }) {
  const path = postEditorPath(job);
  if (!path) return <span className="text-slate-400">—</span>;
  return (
    <Link to={path} className="font-medium text-blue-600 hover:text-blue-800">
      Open post<span className="sr-only">: {job.keywords.join(', ')}</span>
    </Link>
  );
}

const columns: Column<GenerationJob>[] = [
  {
    id: 'keywords',
    header: 'Keywords',
    sortValue: (job) => job.keywords.join(', '),
    cell: (job) => <span className="font-medium text-slate-900">{job.keywords.join(', ')}</span>,
    className: 'max-w-64 break-words',
  },
  { id: 'status', header: 'Status', sortValue: (job) => JOB_STATUS_LABELS[job.status], cell: (job) => <StatusCell job={job} /> },
  {
    id: 'model',
    header: 'Model',
    sortValue: (job) => job.model,
    cell: (job) => job.model ?? '—',
    className: 'whitespace-nowrap',
  },
  {
    id: 'tokens',
    header: 'Tokens',
    sortValue: tokens,
    cell: (job) => tokens(job)?.toLocaleString('en-US') ?? '—',
    className: 'tabular-nums',
  },
  {
    id: 'cost',
    header: 'Cost',
    sortValue: (job) => job.cost,
    cell: (job) => (job.cost === null ? '—' : formatUsd(job.cost)),
    className: 'tabular-nums',
  },
  {
    id: 'created',
    header: 'Created',
    sortValue: (job) => job.createdAt,
    cell: (job) => formatDateTime(job.createdAt),
    className: 'whitespace-nowrap',
  },
  { id: 'post', header: 'Post', cell: (job) => <PostLink job={job} />, className: 'whitespace-nowrap' },
];

function JobCard({ job }: { job: GenerationJob }) {
  const total = tokens(job);
  return (
    <div className="space-y-1.5">
      <div className="flex items-start justify-between gap-3">
        <p className="min-w-0 font-medium break-words text-slate-900">{job.keywords.join(', ')}</p>
        <Badge color={JOB_STATUS_COLORS[job.status]}>{JOB_STATUS_LABELS[job.status]}</Badge>
      </div>
      {job.status === 'failed' && job.error ? <p className="text-xs break-words text-red-600">{job.error}</p> : null}
      <p className="text-xs text-slate-500">
        {formatDateTime(job.createdAt)}
        {job.model ? ` · ${job.model}` : ''}
        {total !== null ? ` · ${total.toLocaleString('en-US')} tokens` : ''}
        {job.cost !== null ? ` · ${formatUsd(job.cost)}` : ''}
      </p>
      <PostLink job={job} />
    </div>
  );
}

/** The newest 20 generation jobs: what they cost and where their drafts are. */
export function GenerationJobsTable() {
  const jobs = useGenerationJobs();
  let body;
  if (jobs.isPending) body = <LoadingBlock label="Loading recent generations" />;
  else if (jobs.isError) body = <QueryError error={jobs.error} onRetry={() => void jobs.refetch()} />;
  else {
    body = (
      <DataTable
        label="Recent generations"
        data={jobs.data}
        columns={columns}
        getRowId={(job) => String(job.id)}
        renderCard={(job) => <JobCard job={job} />}
        className="rounded-none border-0"
      />
    );
  }
  return (
    <Card className="overflow-hidden">
      <CardHeader title="Recent generations" description="The newest 20 AI drafts, with their model, tokens and cost." />
      {body}
    </Card>
  );
}
