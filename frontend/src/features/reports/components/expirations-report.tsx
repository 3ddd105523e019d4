import { Link } from 'react-router';
import { BarChart } from '@/components/ui/charts';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { formatDate } from '@/lib/format';
import type { ExpirationWeek } from '@/types/api';
import { useExpirationsReport } from '../api/get-expirations-report';
import { ReportExportButtons } from './export-csv-button';
import { ReportSection } from './report-section';

function weekText(week: Pick<ExpirationWeek, 'weekStart' | 'weekEnd'>): string {
  return `${formatDate(week.weekStart, 'MMM d')} – ${formatDate(week.weekEnd)}`;
}

function documentsText(count: number): string {
  return `${count} ${count === 1 ? 'document' : 'documents'}`;
}

function WeekList({ weeks }: { weeks: readonly ExpirationWeek[] }) {
  const busy = weeks.filter((w) => w.count > 0);
  if (busy.length === 0) {
    return <p className="text-sm text-slate-500">No documents expire in the next 12 weeks.</p>;
  }
  return (
    <ol aria-label="Expirations by week" className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3 print:grid-cols-2">
      {busy.map((week) => (
        <li key={week.weekStart} className="rounded-lg border border-slate-100 p-3 print:break-inside-avoid">
          <h3 className="flex flex-wrap items-baseline justify-between gap-2 text-sm font-semibold text-slate-900">
            <span>Week of {weekText(week)}</span>
            <span className="text-xs font-normal text-slate-500">{documentsText(week.count)}</span>
          </h3>
          <ul className="mt-2 space-y-2">
            {week.vendors.map((vendor) => (
              <li key={vendor.id} className="text-sm">
                <Link to={`/vendors/${vendor.id}`} className="font-medium text-blue-700 hover:underline">
                  {vendor.name}
                </Link>
                <ul className="mt-0.5 text-slate-600">
                  {vendor.documents.map((doc) => (
                    <li key={doc.id}>
                      {doc.label}, expires {formatDate(doc.expirationDate)}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

/** Documents expiring in each of the next 12 weeks, and whose they are. */
export function ExpirationsReport() {
  const report = useExpirationsReport();
  const total = report.data?.weeks.reduce((sum, w) => sum + w.count, 0) ?? 0;
  return (
    <ReportSection
      title="Upcoming Expirations"
      description={report.data ? `${documentsText(total)} expiring in the next 12 weeks` : 'The next 12 weeks'}
      actions={<ReportExportButtons report="expirations" />}
    >
      {report.isPending ? (
        <LoadingBlock label="Loading upcoming expirations" />
      ) : report.isError ? (
        <QueryError error={report.error} onRetry={() => void report.refetch()} />
      ) : (
        <div className="space-y-6">
          <BarChart
            label="Documents expiring per week"
            bars={report.data.weeks.map((w) => ({
              label: formatDate(w.weekStart, 'MMM d'),
              value: w.count,
              color: '#f59e0b',
            }))}
          />
          <WeekList weeks={report.data.weeks} />
        </div>
      )}
    </ReportSection>
  );
}
