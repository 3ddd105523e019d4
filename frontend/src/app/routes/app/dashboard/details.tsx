import { ComplianceCharts } from '@/features/dashboard/components/compliance-charts';
import { RecentActivity } from '@/features/activity/components/recent-activity';
import { VendorComplianceTable } from '@/features/vendors/components/vendor-compliance-table';

/**
 * The dashboard below its figures: the vendor table (with its filters, a Headless UI listbox),
 * the two charts and the recent activity. Loaded on its own (../dashboard), so that the top
 * of the page does not wait for its code.
 */
export function DashboardDetails() {
  return (
    <>
      <div className="mb-6 min-w-0">
        <VendorComplianceTable />
      </div>
      <div className="grid gap-6 lg:grid-cols-2 2xl:grid-cols-3">
        <ComplianceCharts />
        {/* Two charts fill the two-column row; the activity list takes the next row whole. */}
        <RecentActivity className="lg:col-span-2 2xl:col-span-1" />
      </div>
    </>
  );
}

export default DashboardDetails;
