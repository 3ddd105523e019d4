import { ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { Button } from './button';
import { Spinner } from './spinner';

/** A failed read: the error's message and a retry button. */
export function QueryError({
  error,
  onRetry,
  title = 'Something went wrong',
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  const message = error instanceof Error ? error.message : 'The data could not be loaded.';
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-xl border border-red-200 bg-red-50 px-6 py-8 text-center"
    >
      <ExclamationTriangleIcon aria-hidden className="size-8 text-red-500" />
      <div>
        <p className="font-semibold text-red-900">{title}</p>
        <p className="mt-1 text-sm text-red-700">{message}</p>
      </div>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

export function LoadingBlock({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex items-center justify-center py-12">
      <Spinner label={label} />
    </div>
  );
}
