import { LockClosedIcon } from '@heroicons/react/20/solid';
import { VIEWER_REASON } from '@/lib/permissions';

/** In place of a form a viewer could only see refused (403 forbidden_role). */
export function ReadOnlyNotice() {
  return (
    <div role="note" className="flex gap-3 rounded-xl border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
      <LockClosedIcon aria-hidden className="size-5 shrink-0 text-slate-500" />
      <p>{VIEWER_REASON}</p>
    </div>
  );
}
