import { ArrowDownRightIcon, ArrowUpRightIcon } from '@heroicons/react/20/solid';
import { useMemo, useState } from 'react';
import { LineChart, type LineSeries } from '@/components/ui/line-chart';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import type { ComplianceReport, CompliancePoint, ReportDays } from '@/types/api';
import { DEFAULT_REPORT_DAYS, REPORT_DAYS, useComplianceReport } from '../api/get-compliance-report';
import { formatRate, formatRateChange, gaps, gapText, trendDays, type TrendDay } from '../lib/report-data';
import { ReportExportButtons } from './export-csv-button';
import { ReportSection } from './report-section';

const SERIES: { key: keyof CompliancePoint; label: string; color: string }[] = [
  { key: 'vendorsCurrent', label: 'Current', color: '#10b981' },
  { key: 'vendorsExpiringSoon', label: 'Expiring Soon', color: '#f59e0b' },
  { key: 'vendorsExpired', label: 'Expired', color: '#ef4444' },
  { key: 'vendorsMissing', label: 'Missing', color: '#64748b' },
];

function PeriodSelector({ value, onChange }: { value: ReportDays; onChange: (days: ReportDays) => void }) {
  return (
    <div role="group" aria-label="Period" className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5 shadow-sm">
      {REPORT_DAYS.map((days) => (
        <button
          key={days}
          type="button"
          aria-pressed={value === days}
          onClick={() => onChange(days)}
          className={cn(
            'rounded-md px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600',
            value === days ? 'bg-blue-600 text-white' : 'text-slate-600 hover:bg-slate-100',
          )}
        >
          {days} days
        </button>
      ))}
    </div>
  );
}

function RateSummary({ report }: { report: ComplianceReport }) {
  // The document lets each figure be left out; the server sends null then.
  const current = report.rate.current ?? null;
  const change = report.rate.change ?? null;
  const start = report.rate.start ?? null;
  const Arrow = change !== null && change < 0 ? ArrowDownRightIcon : ArrowUpRightIcon;
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      <div>
        <dt className="text-sm text-slate-500">Compliance rate</dt>
        <dd data-testid="compliance-rate" className="mt-1 text-3xl font-bold text-slate-900 tabular-nums">
          {formatRate(current)}
        </dd>
        <dd className="text-xs text-slate-500">Current vendors out of all vendors</dd>
      </div>
      <div>
        <dt className="text-sm text-slate-500">Change over the last {report.days} days</dt>
        <dd
          data-testid="compliance-rate-change"
          className={cn(
            'mt-1 flex items-center gap-1 text-lg font-semibold tabular-nums',
            change === null || Math.round(change * 10) === 0
              ? 'text-slate-700'
              : change > 0
                ? 'text-emerald-700'
                : 'text-red-700',
          )}
        >
          {change !== null && Math.round(change * 10) !== 0 ? <Arrow aria-hidden className="size-5" /> : null}
          {formatRateChange(change)}
        </dd>
        {start !== null ? <dd className="text-xs text-slate-500">From {formatRate(start)} at the start of the period</dd> : null}
      </div>
    </dl>
  );
}

/** The data behind the chart, for screen readers. */
function TrendTable({ days }: { days: readonly TrendDay[] }) {
  return (
    // A table ignores the width sr-only gives it: the wrapper keeps it from widening a phone's page.
    <div className="sr-only">
      <table>
        <caption>Vendors by status, day by day</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            {SERIES.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
            <th scope="col">Compliance rate</th>
          </tr>
        </thead>
        <tbody>
          {days.map(({ date, point }) => (
            <tr key={date}>
              <th scope="row">{formatDate(date)}</th>
              {point ? (
                <>
                  {SERIES.map((s) => (
                    <td key={s.key}>{point[s.key]}</td>
                  ))}
                  <td>{formatRate(point.complianceRate ?? null)}</td>
                </>
              ) : (
                <td colSpan={SERIES.length + 1}>No data</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TrendChart({ report }: { report: ComplianceReport }) {
  const days = useMemo(() => trendDays(report), [report]);
  const gapRuns = useMemo(() => gaps(days), [days]);
  const series: LineSeries[] = SERIES.map((s) => ({
    label: s.label,
    color: s.color,
    values: days.map(({ point }) => (point ? Number(point[s.key]) : null)),
  }));
  const last = [...days].reverse().find((d) => d.point)?.point;

  if (days.length === 0) {
    return <p className="py-8 text-center text-sm text-slate-500">No snapshots yet for this period.</p>;
  }

  const summary =
    `Vendors by status from ${formatDate(days[0].date)} to ${formatDate(days[days.length - 1].date)}` +
    (last ? `; on ${formatDate(last.date)}: ${SERIES.map((s) => `${s.label} ${last[s.key]}`).join(', ')}` : '') +
    (report.missingDays.length > 0 ? `; no data for ${report.missingDays.length} of ${days.length} days` : '');

  return (
    <div data-testid="trend-chart">
      <LineChart series={series} xLabels={days.map((d) => formatDate(d.date, 'MMM d'))} label={summary}>
        {gapRuns.length > 0 ? (
          <ul data-testid="trend-gaps" className="mt-3 space-y-1 text-sm text-slate-600">
            {gapRuns.map((gap) => (
              <li key={gap.startDate} className="flex items-center gap-2">
                <span aria-hidden className="h-3 w-4 shrink-0 rounded-sm border border-dashed border-slate-300 bg-slate-100" />
                {gapText(gap)}
              </li>
            ))}
          </ul>
        ) : null}
        <TrendTable days={days} />
      </LineChart>
    </div>
  );
}

/** Compliance over 30, 90 or 365 days: the rate, its change, and vendors by status day by day. */
export function ComplianceTrend() {
  const [days, setDays] = useState<ReportDays>(DEFAULT_REPORT_DAYS);
  const report = useComplianceReport(days);
  const switching = report.isPlaceholderData && report.isFetching;

  return (
    <ReportSection
      title="Compliance Trend"
      description={`Vendors by status, one snapshot a day, over the last ${days} days`}
      actions={
        <>
          {switching ? <Spinner className="size-4" label={`Loading the last ${days} days`} /> : null}
          <PeriodSelector value={days} onChange={setDays} />
          <ReportExportButtons report="compliance" params={{ days }} />
        </>
      }
    >
      {report.isPending ? (
        <LoadingBlock label="Loading the compliance trend" />
      ) : report.isError ? (
        <QueryError error={report.error} onRetry={() => void report.refetch()} />
      ) : (
        <div className={cn('space-y-6', switching && 'opacity-60')}>
          <RateSummary report={report.data} />
          <TrendChart report={report.data} />
        </div>
      )}
    </ReportSection>
  );
}
