import { cn } from '@/lib/cn';

type ProgressBarProps = {
  /** 0 to 100. */
  value: number;
  label?: string;
  /** What the value means in words ('2 of 3 chunks sent'), for screen readers. */
  valueText?: string;
  className?: string;
};

export function ProgressBar({ value, label = 'Progress', valueText, className }: ProgressBarProps) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      aria-valuetext={valueText}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <div className="h-full rounded-full bg-blue-600 transition-[width] duration-150" style={{ width: `${clamped}%` }} />
    </div>
  );
}
