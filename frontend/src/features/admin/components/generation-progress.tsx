import { CheckCircleIcon, ExclamationCircleIcon } from '@heroicons/react/20/solid';
import { useEffect, useRef } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { serverMessage } from '@/lib/api-error';
import type { GenerationJob } from '@/types/api';
import { useGenerationJob } from '../api/get-generation-job';
import { postEditorPath } from '../lib/content-labels';
import { GENERATE_FAILED_TEXT } from '../lib/content-messages';

/** What a job's status reads as while it is followed. */
export function jobStatusText(job: Pick<GenerationJob, 'status' | 'error'> | undefined): string {
  switch (job?.status) {
    case 'running':
      return 'Writing the draft…';
    case 'succeeded':
      return 'Draft ready';
    case 'failed':
      return job.error ? `Generation failed: ${job.error}` : 'Generation failed';
    case 'cancelled':
      return 'Generation cancelled';
    case 'scheduled':
      return 'Scheduled…';
    default:
      return 'Queued…';
  }
}

/** Follows one job (read every 2 s) with a live status, then links to the draft or says why it failed. */
export function GenerationProgress({ jobId, onAgain }: { jobId: number; onAgain: () => void }) {
  const job = useGenerationJob(jobId);
  const status = job.data?.status;
  const told = useRef<number | null>(null);

  // The failure toast once per job, when it is seen to fail.
  useEffect(() => {
    if (status !== 'failed' || told.current === jobId) return;
    told.current = jobId;
    toast({ title: GENERATE_FAILED_TEXT, description: job.data?.error ?? undefined, variant: 'error' });
  }, [jobId, job.data?.error, status]);

  const editPath = job.data ? postEditorPath(job.data) : null;
  const working = !job.isError && (status === undefined || status === 'queued' || status === 'scheduled' || status === 'running');
  const failed = status === 'failed' || status === 'cancelled';

  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 p-4">
      <div role="status" aria-live="polite" className="flex items-start gap-3 text-sm">
        {working ? <Spinner className="size-5" label="Generating" /> : null}
        {status === 'succeeded' ? <CheckCircleIcon aria-hidden className="size-5 shrink-0 text-emerald-600" /> : null}
        {failed || job.isError ? <ExclamationCircleIcon aria-hidden className="size-5 shrink-0 text-red-600" /> : null}
        <p className={failed || job.isError ? 'text-red-700' : 'font-medium text-slate-900'}>
          {job.isError
            ? `The job's progress could not be read: ${serverMessage(job.error) ?? job.error.message}`
            : jobStatusText(job.data)}
        </p>
      </div>
      {working ? (
        <p className="mt-2 text-xs text-slate-500">This usually takes 30-60 seconds; you can close this dialog meanwhile.</p>
      ) : null}
      {status === 'succeeded' || failed || job.isError ? (
        <div className="mt-3 flex flex-wrap gap-2">
          {status === 'succeeded' && editPath ? (
            <ButtonLink to={editPath} size="sm">
              Edit draft
            </ButtonLink>
          ) : null}
          <Button variant="outline" size="sm" onClick={onAgain}>
            {status === 'succeeded' ? 'Generate another' : 'Try again'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
