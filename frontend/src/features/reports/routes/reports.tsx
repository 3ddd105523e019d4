import { PrinterIcon } from '@heroicons/react/20/solid';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { LoadingBlock } from '@/components/ui/query-state';
import { WeeklySummarySwitch } from '@/features/account/components/weekly-summary-switch';
import { ERROR_CODES } from '@/lib/api-error';
import { getComplianceReportQueryOptions } from '../api/get-compliance-report';
import { ComplianceTrend } from '../components/compliance-trend';
import { ExpirationsReport } from '../components/expirations-report';
import { NonCompliantReport } from '../components/non-compliant-report';
import { ReportsLocked } from '../components/reports-locked';
import { ResponsivenessReport } from '../components/responsiveness-report';

const DESCRIPTION = 'Compliance over time, upcoming expirations and how your vendors respond';

function ProfessionalReports() {
  return (
    <div className="space-y-6">
      <div className="rounded-xl border border-slate-200 bg-white px-4 py-4 shadow-sm sm:px-5 print:hidden">
        <WeeklySummarySwitch />
      </div>
      <ComplianceTrend />
      <ExpirationsReport />
      <NonCompliantReport />
      <ResponsivenessReport />
    </div>
  );
}

/**
 * The advanced reporting dashboard. The server decides who may see it: a Free organization's
 * report calls answer 402 plan_required, and then the page shows what the reports are instead.
 */
export function ReportsRoute() {
  // The compliance report (the first period) tells the plan; its section reads the same query.
  const gate = useQuery(getComplianceReportQueryOptions());
  const locked = gate.isError && gate.error.code === ERROR_CODES.planRequired;
  const ready = !gate.isPending && !locked;

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
      {gate.isPending ? (
        <LoadingBlock label="Loading reports" />
      ) : locked ? (
        <ReportsLocked message={gate.error.message} />
      ) : (
        <ProfessionalReports />
      )}
    </>
  );
}

export default ReportsRoute;
