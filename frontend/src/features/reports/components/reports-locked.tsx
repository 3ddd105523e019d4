import { LockClosedIcon, SparklesIcon } from '@heroicons/react/24/outline';
import type { ReactNode } from 'react';
import { UpgradeButton } from '@/components/plan/upgrade-button';
import { ButtonLink, FOCUS_ON_BLUE } from '@/components/ui/button';
import { BarChart } from '@/components/ui/charts';
import { LineChart } from '@/components/ui/line-chart';
import { Spinner } from '@/components/ui/spinner';
import { PROFESSIONAL_PRICE } from '@/config';
import { usePaymentStatus } from '@/lib/api/get-payment-status';

/** Made-up numbers for the blurred previews: nothing of the organization's own. */
const SAMPLE_TREND = [12, 12, 13, 13, 14, 14, 15, 15, 15, 16, 17, 17];
const SAMPLE_WEEKS = [1, 3, 0, 2, 4, 1, 0, 2, 1, 3, 0, 1];

function SampleTable({ headers, rows }: { headers: string[]; rows: string[][] }) {
  return (
    <table className="w-full text-left text-xs">
      <thead className="bg-slate-50 text-slate-500 uppercase">
        <tr>
          {headers.map((h) => (
            <th key={h} className="px-2 py-1.5 font-semibold">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 text-slate-700">
        {rows.map((row) => (
          <tr key={row[0]}>
            {row.map((cell, i) => (
              <td key={i} className="px-2 py-1.5">
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type ReportPreview = { title: string; description: string; sample: ReactNode };

const REPORTS: ReportPreview[] = [
  {
    title: 'Compliance Trend',
    description: 'Your compliance rate and its change, with vendors by status day by day over the last 30, 90 or 365 days.',
    sample: (
      <LineChart
        label="Sample compliance trend"
        xLabels={SAMPLE_TREND.map((_, i) => `Day ${i + 1}`)}
        series={[
          { label: 'Current', color: '#10b981', values: SAMPLE_TREND },
          { label: 'Expiring Soon', color: '#f59e0b', values: SAMPLE_TREND.map((v) => 20 - v) },
        ]}
      />
    ),
  },
  {
    title: 'Upcoming Expirations',
    description: 'Documents expiring in each of the next 12 weeks, with the vendors they belong to.',
    sample: (
      <BarChart
        label="Sample expirations per week"
        bars={SAMPLE_WEEKS.map((value, i) => ({ label: `W${i + 1}`, value, color: '#f59e0b' }))}
      />
    ),
  },
  {
    title: 'Non-Compliant Vendors',
    description: 'Every vendor with missing, expired or soon-expiring documents, and why, by service type and status.',
    sample: (
      <SampleTable
        headers={['Vendor', 'Status', 'Reason']}
        rows={[
          ['Northwind Electric', 'Expired', 'COI - General expired'],
          ['Blue Ridge HVAC', 'Missing', 'W-9 Form missing'],
          ['Summit Cleaning', 'Expiring Soon', 'COI - Auto expiring soon'],
        ]}
      />
    ),
  },
  {
    title: 'Vendor Responsiveness',
    description: 'How many days each vendor took to upload the documents you asked for.',
    sample: (
      <SampleTable
        headers={['Vendor', 'Document', 'Days to upload']}
        rows={[
          ['Northwind Electric', 'W-9 Form', '2 days'],
          ['Blue Ridge HVAC', 'COI - General', 'Not yet'],
          ['Summit Cleaning', 'Vendor Agreement', '6 days'],
        ]}
      />
    ),
  },
];

function UpgradeAction() {
  const status = usePaymentStatus();
  if (status.isPending) return <Spinner label="Loading your plan" />;
  if (status.isError) {
    return (
      <ButtonLink to="/billing" variant="outline" className={`text-blue-700 ${FOCUS_ON_BLUE}`}>
        See your plan
      </ButtonLink>
    );
  }
  return (
    <UpgradeButton
      status={status.data}
      variant="outline"
      className={`border-transparent text-blue-700 ${FOCUS_ON_BLUE}`}
      noticeClassName="text-blue-50"
    />
  );
}

/** What a Free organization sees: the server's sentence, what each report shows, and Upgrade Now. */
export function ReportsLocked({ message }: { message: string }) {
  return (
    <div className="space-y-6" data-testid="reports-locked">
      <section
        aria-labelledby="reports-upgrade-heading"
        className="flex flex-col gap-4 rounded-xl bg-gradient-to-r from-blue-600 to-indigo-600 p-5 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between"
      >
        <div className="flex gap-4">
          <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/15">
            <SparklesIcon aria-hidden className="size-6" />
          </div>
          <div>
            <h2 id="reports-upgrade-heading" className="font-semibold">
              Reports are part of the Professional plan
            </h2>
            <p data-testid="plan-required-message" className="mt-1 text-sm text-blue-50">
              {message}
            </p>
            <p className="mt-1 text-sm text-blue-50">Upgrade for ${PROFESSIONAL_PRICE}/month to see them for your vendors.</p>
          </div>
        </div>
        <UpgradeAction />
      </section>
      <ul className="grid gap-6 lg:grid-cols-2">
        {REPORTS.map((report) => (
          <li key={report.title} className="min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm">
            <div className="border-b border-slate-100 px-5 py-4">
              <h3 className="flex items-center gap-2 text-base font-semibold text-slate-900">
                <LockClosedIcon aria-hidden className="size-4 text-slate-400" />
                {report.title}
              </h3>
              <p className="mt-0.5 text-sm text-slate-500">{report.description}</p>
            </div>
            <div className="relative overflow-hidden p-5">
              <div aria-hidden inert className="pointer-events-none blur-[3px] select-none">
                {report.sample}
              </div>
              <span className="absolute top-3 right-3 rounded-full bg-white/90 px-2 py-0.5 text-xs font-medium text-slate-600 ring-1 ring-slate-200">
                Sample
              </span>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
