import { PrinterIcon } from '@heroicons/react/20/solid';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { LoadingBlock } from '@/components/ui/query-state';
import { ERROR_CODES } from '@/lib/api-error';
import { getComplianceReportQueryOptions } from '../api/get-compliance-report';
import { ComplianceTrend } from '../components/compliance-trend';
import { ExpirationsReport } from '../components/expirations-report';
import { NonCompliantReport } from '../components/non-compliant-report';
import { ReportsLocked } from '../components/reports-locked';
import { ResponsivenessReport } from '../components/responsiveness-report';
import { ReminderEmailsSwitch, WeeklySummarySwitch } from '@/components/account/email-preferences';

const DESCRIPTION = 'Compliance over time, upcoming expirations and how your vendors respond';

function ProfessionalReports() {
  return (
    <div className="space-y-6">
      <div className="rounded-xl border border-slate-200 bg-white px-4 py-4 shadow-sm sm:px-5 print:hidden">
        <WeeklySummarySwitch />
        <ReminderEmailsSwitch className="mt-4 border-t border-slate-100 pt-4" />
      </div>
      <ComplianceTrend />
      <ExpirationsReport />
      <NonCompliantReport />
      <ResponsivenessReport />
    </div>
  );
}

type Access = { kind: 'professional' } | { kind: 'locked'; message: string };

const accessKey = (access: Access | undefined) => (access?.kind === 'locked' ? `locked:${access.message}` : access?.kind);

/**
 * Who may see the reports, as the server last said: the compliance report (the first period)
 * answers 402 plan_required to a Free organization. The last answer stands while the report is
 * fetched again, so the page does not fall back to a spinner (and remount every section) each time.
 */
function useReportsAccess(): Access | undefined {
  const gate = useQuery(getComplianceReportQueryOptions());
  const latest: Access | undefined = gate.isError
    ? gate.error.code === ERROR_CODES.planRequired
      ? { kind: 'locked', message: gate.error.message }
      : { kind: 'professional' }
    : gate.isSuccess
      ? { kind: 'professional' }
      : undefined;
  const [settled, setSettled] = useState(latest);
  if (latest && accessKey(latest) !== accessKey(settled)) setSettled(latest);
  return latest ?? settled;
}

/**
 * The advanced reporting dashboard. The server decides who may see it: a Free organization's
 * report calls answer 402 plan_required, and then the page shows what the reports are instead.
 */
export function ReportsRoute() {
  const access = useReportsAccess();
  const ready = access?.kind === 'professional';

  return (
    <>
      <PageHeader
        title="Reports"
        description={DESCRIPTION}
        action={
          ready ? (
            <Button variant="outline" onClick={() => window.print()} className="print:hidden">
              <PrinterIcon aria-hidden className="size-5" />
              Print
            </Button>
          ) : null
        }
      />
      {access === undefined ? (
        <LoadingBlock label="Loading reports" />
      ) : access.kind === 'locked' ? (
        <ReportsLocked message={access.message} />
      ) : (
        <ProfessionalReports />
      )}
    </>
  );
}

export default ReportsRoute;
