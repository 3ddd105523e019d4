import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export type LineSeries = {
  label: string;
  color: string;
  /** One value per x position; null is a gap in the line, never bridged. */
  values: readonly (number | null)[];
};

type LineChartProps = {
  series: readonly LineSeries[];
  /** The x positions' labels (dates); the first, middle and last are shown under the chart. */
  xLabels: readonly string[];
  /** The picture's accessible name: a summary of what it shows. */
  label: string;
  /** The data as text (an sr-only table, say) for people who cannot see the picture. */
  children?: ReactNode;
  className?: string;
};

const HEIGHT = 50;

/** Indexes where no series has a value: shaded as a gap, the lines stop on both sides. */
function emptyRuns(series: readonly LineSeries[], count: number): { from: number; to: number }[] {
  const runs: { from: number; to: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    const empty = series.every((s) => s.values[i] === null || s.values[i] === undefined);
    if (!empty) continue;
    const last = runs[runs.length - 1];
    if (last && last.to === i - 1) last.to = i;
    else runs.push({ from: i, to: i });
  }
  return runs;
}

/** A line per series over the x positions: null values break the line and empty positions are shaded. */
export function LineChart({ series, xLabels, label, children, className }: LineChartProps) {
  const count = xLabels.length;
  const max = Math.max(1, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const step = count > 1 ? 100 / (count - 1) : 0;
  const x = (i: number) => (count > 1 ? i * step : 50);
  const y = (v: number) => HEIGHT - (v / max) * (HEIGHT - 2);
  const clamp = (v: number) => Math.min(100, Math.max(0, v));
  const bands = emptyRuns(series, count);
  const ticks = count > 2 ? [0, Math.floor((count - 1) / 2), count - 1] : [...Array(count).keys()];

  function path(values: readonly (number | null)[]): string {
    let d = '';
    let drawing = false;
    values.forEach((v, i) => {
      if (v === null || v === undefined) {
        drawing = false;
        return;
      }
      // A day on its own still shows: a zero-length segment with round caps is a dot.
      const next = values[i + 1];
      const alone = !drawing && (next === null || next === undefined);
      d += `${drawing ? 'L' : 'M'}${x(i).toFixed(3)} ${y(v).toFixed(3)}${alone ? ` L${x(i).toFixed(3)} ${y(v).toFixed(3)}` : ''} `;
      drawing = true;
    });
    return d.trim();
  }

  return (
    <figure className={cn('w-full', className)}>
      <div className="flex gap-2">
        <div
          aria-hidden
          className="flex h-44 flex-col justify-between text-right text-[10px] text-slate-500 tabular-nums sm:text-xs"
        >
          <span>{max}</span>
          <span>{Math.round(max / 2)}</span>
          <span>0</span>
        </div>
        <svg
          viewBox={`0 -1 100 ${HEIGHT + 2}`}
          preserveAspectRatio="none"
          className="h-44 min-w-0 flex-1 overflow-visible"
          role="img"
          aria-label={label}
        >
          {bands.map((band) => (
            <rect
              key={band.from}
              data-testid="chart-gap"
              x={clamp(x(band.from) - step / 2)}
              width={Math.max(clamp(x(band.to) + step / 2) - clamp(x(band.from) - step / 2), 0.4)}
              y={-1}
              height={HEIGHT + 2}
              fill="#f1f5f9"
              stroke="#cbd5e1"
              strokeDasharray="2 2"
              strokeWidth="1"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {[0.5, 1].map((f) => (
            <line
              key={f}
              x1="0"
              x2="100"
              y1={y(max * f)}
              y2={y(max * f)}
              stroke="#e2e8f0"
              strokeWidth="1"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          <line x1="0" x2="100" y1={HEIGHT} y2={HEIGHT} stroke="#cbd5e1" strokeWidth="1" vectorEffect="non-scaling-stroke" />
          {series.map((s) => (
            <path
              key={s.label}
              data-series={s.label}
              d={path(s.values)}
              fill="none"
              stroke={s.color}
              strokeWidth="2.5"
              strokeLinecap="round"
              strokeLinejoin="round"
              vectorEffect="non-scaling-stroke"
            />
          ))}
        </svg>
      </div>
      <div aria-hidden className="mt-1 flex justify-between pl-6 text-[10px] text-slate-500 sm:text-xs">
        {ticks.map((i) => (
          <span key={i}>{xLabels[i]}</span>
        ))}
      </div>
      <figcaption>
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
          {series.map((s) => (
            <li key={s.label} className="flex items-center gap-2">
              <span aria-hidden className="h-[3px] w-4 rounded-full" style={{ backgroundColor: s.color }} />
              {s.label}
            </li>
          ))}
          {bands.length > 0 ? (
            <li className="flex items-center gap-2">
              <span aria-hidden className="h-3 w-4 rounded-sm border border-dashed border-slate-300 bg-slate-100" />
              No data
            </li>
          ) : null}
        </ul>
        {children}
      </figcaption>
    </figure>
  );
}
