import { ERROR_CODES, isApiError } from '@/lib/api-error';
import { toast } from './toast';

/**
 * The toast of a failed bulk call. Bulk calls are all or nothing, so a `not_found` (one of the
 * rows is gone or not the organization's) changed nothing: say so.
 */
export function bulkFailureToast(title: string, error: unknown, fallback: string) {
  const message = error instanceof Error && error.message ? error.message : fallback;
  const description = isApiError(error) && error.code === ERROR_CODES.notFound ? `${message} Nothing was changed.` : message;
  toast({ title, description, variant: 'error' });
}
