import { CheckCircleIcon, ExclamationCircleIcon, InformationCircleIcon, XMarkIcon } from '@heroicons/react/20/solid';
import { cn } from '@/lib/cn';
import { dismissToast, useToasts, type ToastItem } from './toast-store';

const variantStyles: Record<NonNullable<ToastItem['variant']>, string> = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-200 bg-white text-slate-900',
  error: 'border-red-200 bg-red-50 text-red-900',
};

function VariantIcon({ variant }: { variant: ToastItem['variant'] }) {
  if (variant === 'success') return <CheckCircleIcon aria-hidden className="size-5 shrink-0 text-emerald-500" />;
  if (variant === 'error') return <ExclamationCircleIcon aria-hidden className="size-5 shrink-0 text-red-500" />;
  return <InformationCircleIcon aria-hidden className="size-5 shrink-0 text-blue-500" />;
}

/** Renders the open toast (at most one) in a fixed, labelled region; each toast is a live status. */
export function Toaster() {
  const toasts = useToasts().filter((t) => t.open);
  return (
    <section
      aria-label="Notifications"
      data-print="hide"
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] flex flex-col items-center gap-2 p-4 sm:inset-x-auto sm:right-0 sm:bottom-0 sm:top-auto sm:items-end"
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          role="status"
          aria-live="polite"
          aria-atomic="true"
          data-variant={t.variant}
          className={cn(
            'toast-enter pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border p-4 shadow-lg ring-1 ring-black/5',
            variantStyles[t.variant ?? 'default'],
          )}
        >
          <VariantIcon variant={t.variant} />
          <div className="min-w-0 flex-1">
            <p className="text-sm font-semibold">{t.title}</p>
            {t.description ? <p className="mt-1 text-sm break-words opacity-80">{t.description}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => dismissToast(t.id)}
            className="-m-1 rounded-md p-1 opacity-60 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-blue-500"
            aria-label="Close"
          >
            <XMarkIcon aria-hidden className="size-4" />
          </button>
        </div>
      ))}
    </section>
  );
}
