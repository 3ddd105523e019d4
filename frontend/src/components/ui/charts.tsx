import { cn } from '@/lib/cn';

export type ChartSegment = { label: string; value: number; color: string };

/** A donut chart with a legend; the numbers are also readable as a list. */
export function DonutChart({
  segments,
  label,
  centerLabel,
}: {
  segments: readonly ChartSegment[];
  label: string;
  centerLabel?: string;
}) {
  const total = segments.reduce((sum, s) => sum + s.value, 0);
  const radius = 40;
  const circumference = 2 * Math.PI * radius;
  let offset = 0;
  return (
    <figure className="flex flex-col items-center gap-4 sm:flex-row sm:items-center" aria-label={label}>
      <svg
        viewBox="0 0 100 100"
        className="size-36 shrink-0 -rotate-90"
        role="img"
        aria-label={`${label}: ${segments.map((s) => `${s.label} ${s.value}`).join(', ')}`}
      >
        <circle cx="50" cy="50" r={radius} fill="none" stroke="#e2e8f0" strokeWidth="14" />
        {total > 0
          ? segments
              .filter((s) => s.value > 0)
              .map((s) => {
                const length = (s.value / total) * circumference;
                const circle = (
                  <circle
                    key={s.label}
                    cx="50"
                    cy="50"
                    r={radius}
                    fill="none"
                    stroke={s.color}
                    strokeWidth="14"
                    strokeDasharray={`${length} ${circumference - length}`}
                    strokeDashoffset={-offset}
                  />
                );
                offset += length;
                return circle;
              })
          : null}
        <text
          x="50"
          y="50"
          textAnchor="middle"
          dominantBaseline="central"
          className="rotate-90 fill-slate-900 text-[18px] font-bold"
          transform="rotate(90 50 50)"
        >
          {total}
        </text>
      </svg>
      <figcaption className="w-full">
        {centerLabel ? <p className="mb-2 text-xs text-slate-500">{centerLabel}</p> : null}
        <ul className="space-y-1.5 text-sm">
          {segments.map((s) => (
            <li key={s.label} className="flex items-center justify-between gap-4">
              <span className="flex items-center gap-2 text-slate-600">
                <span aria-hidden className="size-2.5 rounded-full" style={{ backgroundColor: s.color }} />
                {s.label}
              </span>
              <span className="font-medium text-slate-900 tabular-nums">{s.value}</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

export type ChartBar = { label: string; value: number; color?: string };

/** Vertical bars with labels under them and values on top. */
export function BarChart({ bars, label, className }: { bars: readonly ChartBar[]; label: string; className?: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const width = 100 / Math.max(1, bars.length);
  return (
    <figure aria-label={label} className={cn('w-full', className)}>
      <svg
        viewBox="0 0 100 60"
        preserveAspectRatio="none"
        className="h-40 w-full"
        role="img"
        aria-label={`${label}: ${bars.map((b) => `${b.label} ${b.value}`).join(', ')}`}
      >
        {[0.25, 0.5, 0.75, 1].map((f) => (
          <line
            key={f}
            x1="0"
            x2="100"
            y1={56 - f * 50}
            y2={56 - f * 50}
            stroke="#e2e8f0"
            strokeWidth="0.3"
            vectorEffect="non-scaling-stroke"
          />
        ))}
        {bars.map((b, i) => {
          const h = (b.value / max) * 50;
          return (
            <rect
              key={b.label}
              x={i * width + width * 0.18}
              y={56 - h}
              width={width * 0.64}
              height={Math.max(h, b.value > 0 ? 0.8 : 0)}
              rx="0.8"
              fill={b.color ?? '#2563eb'}
            >
              <title>{`${b.label}: ${b.value}`}</title>
            </rect>
          );
        })}
        <line x1="0" x2="100" y1="56" y2="56" stroke="#cbd5e1" strokeWidth="0.5" vectorEffect="non-scaling-stroke" />
      </svg>
      <div
        className="mt-1 grid text-center text-[10px] text-slate-500 sm:text-xs"
        style={{ gridTemplateColumns: `repeat(${bars.length}, minmax(0, 1fr))` }}
      >
        {bars.map((b) => (
          <div key={b.label} className="truncate">
            <span className="block font-semibold text-slate-800 tabular-nums">{b.value}</span>
            {b.label}
          </div>
        ))}
      </div>
    </figure>
  );
}
