import { cn } from '@/lib/cn';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="progressbar" aria-label={label} aria-busy="true" className="inline-flex">
      <svg className={cn('size-6 animate-spin text-blue-600', className)} viewBox="0 0 24 24" fill="none" aria-hidden>
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="4" className="opacity-20" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
      </svg>
    </span>
  );
}

/** A centred spinner that fills its container (route and page loading states). */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-[50vh] w-full items-center justify-center" data-testid="page-spinner">
      <Spinner className="size-8" label={label} />
    </div>
  );
}
