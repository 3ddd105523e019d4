import { CalendarDaysIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { toast } from '@/components/ui/toast';
import { RECOMMENDED_POSTS_PER_WEEK, WEEKLY_PLAN_DAYS, WEEKLY_PLAN_OPTIONS } from '@/config';
import { ERROR_CODES, serverMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import type { PostsPerWeek, WeeklyPlan } from '@/types/api';
import { useCancelWeeklyPlan } from '../api/cancel-weekly-plan';
import { useCreateWeeklyPlan } from '../api/create-weekly-plan';
import { useWeeklyPlan } from '../api/get-weekly-plan';
import { JOB_STATUS_COLORS, JOB_STATUS_LABELS, PLAN_STATUS_LABELS, postEditorPath } from '../lib/content-labels';
import { WEEKLY_PLAN_FAILED_TEXT } from '../lib/content-messages';
import { AiNotConfigured } from './ai-not-configured';

const ALREADY_ACTIVE_TEXT = 'A weekly plan is already active: cancel it before creating another.';

/** Weekly automation: 3, 5 (recommended) or 7 AI posts a week, scheduled over the next 5 days. */
export function WeeklyAutomation({ aiConfigured }: { aiConfigured: boolean }) {
  const plan = useWeeklyPlan();
  let body;
  if (plan.isPending) body = <LoadingBlock label="Loading the weekly plan" />;
  else if (plan.isError) body = <QueryError error={plan.error} onRetry={() => void plan.refetch()} />;
  else {
    const active = plan.data?.status === 'active' ? plan.data : null;
    body = (
      <div className="space-y-5">
        {aiConfigured ? null : <AiNotConfigured />}
        {active ? <PlanDetails plan={active} /> : <CreatePlan disabled={!aiConfigured} />}
        {plan.data && !active ? <PlanDetails plan={plan.data} /> : null}
      </div>
    );
  }
  return (
    <Card>
      <CardHeader
        title="Weekly automation"
        description={`AI drafts on a schedule: a plan's posts are scheduled over the next ${WEEKLY_PLAN_DAYS} days.`}
      />
      <CardBody>{body}</CardBody>
    </Card>
  );
}

function CreatePlan({ disabled }: { disabled: boolean }) {
  const create = useCreateWeeklyPlan();
  const [postsPerWeek, setPostsPerWeek] = useState<PostsPerWeek>(RECOMMENDED_POSTS_PER_WEEK);

  function onCreate() {
    create.mutate(postsPerWeek, {
      onSuccess: (plan) =>
        toast({
          title: 'Weekly plan created',
          description: `${plan.plan.length} posts scheduled over the next ${WEEKLY_PLAN_DAYS} days.`,
          variant: 'success',
        }),
      onError: (error) =>
        toast({
          title: WEEKLY_PLAN_FAILED_TEXT,
          description: serverMessage(error) ?? (error.code === ERROR_CODES.conflict ? ALREADY_ACTIVE_TEXT : undefined),
          variant: 'error',
        }),
    });
  }

  return (
    <div className="space-y-4">
      <fieldset disabled={disabled || create.isPending}>
        <legend className="text-sm font-medium text-slate-700">Posts per week</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-3">
          {WEEKLY_PLAN_OPTIONS.map((option) => {
            const recommended = option.postsPerWeek === RECOMMENDED_POSTS_PER_WEEK;
            const checked = postsPerWeek === option.postsPerWeek;
            return (
              <label
                key={option.postsPerWeek}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-600 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60',
                  checked ? 'border-blue-500 bg-blue-50' : 'border-slate-200 bg-white hover:bg-slate-50',
                )}
              >
                <input
                  type="radio"
                  name="posts-per-week"
                  value={option.postsPerWeek}
                  checked={checked}
                  onChange={() => setPostsPerWeek(option.postsPerWeek)}
                  className="mt-0.5 size-4 accent-blue-600"
                />
                <span className="min-w-0">
                  <span className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    {option.postsPerWeek} posts per week
                    {recommended ? <Badge color="green">Recommended</Badge> : null}
                  </span>
                  <span className="mt-0.5 block text-slate-600">about ${option.monthlyCost} per month</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <Button onClick={onCreate} disabled={disabled || create.isPending}>
        <CalendarDaysIcon aria-hidden className="size-5" />
        {create.isPending ? 'Creating...' : 'Create weekly plan'}
      </Button>
    </div>
  );
}

function PlanDetails({ plan }: { plan: WeeklyPlan }) {
  const cancel = useCancelWeeklyPlan();
  const [confirming, setConfirming] = useState(false);
  const active = plan.status === 'active';

  function onCancel() {
    cancel.mutate(undefined, {
      onSuccess: () =>
        toast({ title: 'Weekly plan cancelled', description: 'Its scheduled posts will not be written.', variant: 'success' }),
      onError: (error) => toast({ title: 'Failed to cancel weekly plan', description: serverMessage(error), variant: 'error' }),
      onSettled: () => setConfirming(false),
    });
  }

  return (
    <section aria-label={active ? 'Current weekly plan' : 'Last weekly plan'} className="space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
            {active ? 'Current plan' : 'Last plan'}: {plan.postsPerWeek} posts per week
            <Badge color={active ? 'green' : 'gray'}>{PLAN_STATUS_LABELS[plan.status]}</Badge>
          </h3>
          <p className="mt-0.5 text-sm text-slate-500">
            about ${plan.monthlyCost} per month · created {formatDateTime(plan.createdAt)}
          </p>
        </div>
        {active ? (
          <Button variant="outline" size="sm" className="text-red-600" onClick={() => setConfirming(true)}>
            Cancel plan
          </Button>
        ) : null}
      </div>
      {plan.plan.length ? (
        <ul aria-label="Scheduled posts" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
          {plan.plan.map((item) => {
            const editPath = postEditorPath(item);
            return (
              <li
                key={item.jobId}
                className="flex flex-col gap-1 px-3 py-2.5 text-sm sm:flex-row sm:items-center sm:justify-between sm:gap-3"
              >
                <span className="min-w-0 font-medium break-words text-slate-900">{item.keyword}</span>
                <span className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-1 text-slate-500">
                  <time dateTime={item.scheduledFor}>{formatDateTime(item.scheduledFor)}</time>
                  <Badge color={JOB_STATUS_COLORS[item.status]}>{JOB_STATUS_LABELS[item.status]}</Badge>
                  {editPath ? (
                    <Link to={editPath} className="font-medium text-blue-600 hover:text-blue-800">
                      View post<span className="sr-only">: {item.keyword}</span>
                    </Link>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={onCancel}
        pending={cancel.isPending}
        title="Cancel the weekly plan?"
        description="Its posts not yet written will not be written. Drafts already written stay."
        confirmLabel="Cancel plan"
        pendingLabel="Cancelling..."
        cancelLabel="Keep plan"
      />
    </section>
  );
}
