import type { ComponentType, ReactNode, SVGProps } from 'react';
import { cn } from '@/lib/cn';

export type StatColor = 'blue' | 'green' | 'yellow' | 'red';

const iconColors: Record<StatColor, string> = {
  blue: 'bg-blue-50 text-blue-600',
  green: 'bg-emerald-50 text-emerald-600',
  yellow: 'bg-amber-50 text-amber-600',
  red: 'bg-red-50 text-red-600',
};

type StatCardProps = {
  title: string;
  value: ReactNode;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  color?: StatColor;
  hint?: ReactNode;
};

/** A statistic card: icon, title, value, in one of four colours. */
export function StatCard({ title, value, icon: Icon, color = 'blue', hint }: StatCardProps) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="stat-card">
      <div className="flex items-center gap-4">
        <div className={cn('flex size-11 shrink-0 items-center justify-center rounded-lg', iconColors[color])}>
          <Icon aria-hidden className="size-6" />
        </div>
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-500">{title}</p>
          <p className="text-2xl font-semibold tracking-tight text-slate-900">{value}</p>
        </div>
      </div>
      {hint ? <div className="mt-3 text-xs text-slate-500">{hint}</div> : null}
    </div>
  );
}
