import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

type ReportSectionProps = {
  title: string;
  description?: ReactNode;
  /** Buttons and selectors: left out of the printed page. */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
};

/** One report: a card with a heading (its region's name), its actions, and its content. */
export function ReportSection({ title, description, actions, className, children }: ReportSectionProps) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        'report-section min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm print:break-inside-avoid print:shadow-none',
        className,
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-4 py-4 sm:px-5">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          {description ? <p className="mt-0.5 text-sm text-slate-500">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2 print:hidden">{actions}</div> : null}
      </div>
      <div className="p-4 sm:p-5">{children}</div>
    </section>
  );
}
