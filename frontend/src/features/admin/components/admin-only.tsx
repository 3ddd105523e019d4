import { LockClosedIcon } from '@heroicons/react/24/outline';
import type { ReactNode } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { ERROR_CODES, isApiError } from '@/lib/api-error';
import { useUser } from '@/lib/session';

export const NO_ACCESS_TEXT = 'You do not have access to the admin area.';

/** What a signed-in user without the admin role sees instead of an admin page. */
export function AdminAccessDenied() {
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 py-16 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500">
        <LockClosedIcon aria-hidden className="size-6" />
      </div>
      <p className="text-base font-semibold text-slate-900">{NO_ACCESS_TEXT}</p>
      <ButtonLink to="/dashboard" variant="outline">
        Back to Dashboard
      </ButtonLink>
    </div>
  );
}

/** The server refused an admin call: the role was taken away since the session was read. */
export function isForbidden(error: unknown): boolean {
  return isApiError(error) && error.code === ERROR_CODES.forbidden;
}

/**
 * Renders admin pages for admins only. The server checks the role on every admin call
 * (docs/decisions.md, 4); this check only spares non-admins a page of refusals,
 * so its children (and their reads) never mount for them.
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const user = useUser();
  if (user?.role !== 'admin') return <AdminAccessDenied />;
  return <>{children}</>;
}
