import type { BadgeColor } from '@/components/ui/badge';
import type { SelectOption } from '@/components/ui/select';
import type { ContentTone, GenerationJobStatus, WeeklyPlan } from '@/types/api';

export const TONE_OPTIONS: readonly SelectOption<ContentTone>[] = [
  { value: 'professional', label: 'Professional' },
  { value: 'friendly', label: 'Friendly' },
  { value: 'authoritative', label: 'Authoritative' },
  { value: 'conversational', label: 'Conversational' },
  { value: 'educational', label: 'Educational' },
];

export const JOB_STATUS_LABELS: Record<GenerationJobStatus, string> = {
  scheduled: 'Scheduled',
  queued: 'Queued',
  running: 'Writing',
  succeeded: 'Draft ready',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const JOB_STATUS_COLORS: Record<GenerationJobStatus, BadgeColor> = {
  scheduled: 'purple',
  queued: 'gray',
  running: 'blue',
  succeeded: 'green',
  failed: 'red',
  cancelled: 'gray',
};

export const PLAN_STATUS_LABELS: Record<WeeklyPlan['status'], string> = {
  active: 'Active',
  cancelled: 'Cancelled',
  finished: 'Finished',
};

/** The editor's address of a post: by slug when known, else by id (the editor takes either). */
export function postEditorPath(post: { postId?: number | null; postSlug?: string | null }): string | null {
  const ref = post.postSlug || (post.postId == null ? null : String(post.postId));
  return ref ? `/admin/blog/edit/${encodeURIComponent(ref)}` : null;
}

/** 'vendor onboarding, w-9 forms' -> ['vendor onboarding', 'w-9 forms']: trimmed, no empties, no repeats. */
export function parseKeywordList(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(',')
    .map((keyword) => keyword.trim())
    .filter((keyword) => {
      const key = keyword.toLowerCase();
      if (!keyword || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
