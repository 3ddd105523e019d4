import type { LoaderFunctionArgs } from 'react-router';
import { RECENT_ACTIVITY_LIMIT } from '@/config';
import {
  FIRST_ACTIVITY_PAGE,
  getActivityLogsQueryOptions,
  getActivityPageQueryOptions,
} from '@/features/activity/api/get-activity-logs';
import { getAdminBlogPostsQueryOptions } from '@/features/admin/api/get-admin-blog-posts';
import { getBlogStatsQueryOptions } from '@/features/admin/api/get-blog-stats';
import { getContentStatsQueryOptions } from '@/features/admin/api/get-content-stats';
import { getGenerationJobsQueryOptions } from '@/features/admin/api/get-generation-jobs';
import { getKeywordCountQueryOptions } from '@/features/admin/api/get-keyword-count';
import { getKeywordSuggestionsQueryOptions } from '@/features/admin/api/get-keyword-suggestions';
import { getWeeklyPlanQueryOptions } from '@/features/admin/api/get-weekly-plan';
import { getDashboardStatsQueryOptions } from '@/features/dashboard/api/get-dashboard-stats';
import { FIRST_DOCUMENT_PAGE, getDocumentPageQueryOptions } from '@/features/documents/api/get-documents';
import { FIRST_REMINDER_PAGE, getReminderPageQueryOptions } from '@/features/reminders/api/get-reminders';
import { getComplianceReportQueryOptions } from '@/features/reports/api/get-compliance-report';
import { getExpirationsReportQueryOptions } from '@/features/reports/api/get-expirations-report';
import { getNonCompliantReportQueryOptions } from '@/features/reports/api/get-non-compliant-report';
import { getResponsivenessReportQueryOptions } from '@/features/reports/api/get-responsiveness-report';
import { getVendorQueryOptions } from '@/features/vendors/api/get-vendor';
import { FIRST_VENDOR_PAGE, getVendorPageQueryOptions } from '@/features/vendors/api/get-vendors';
import { getPaymentStatusQueryOptions } from '@/lib/api/get-payment-status';
import { getPublicConfigQueryOptions } from '@/lib/api/get-public-config';
import { queryClient as client } from '@/lib/query-client';
import { sessionStore } from '@/lib/session';

/**
 * Route loaders start a page's reads while its code chunk downloads (TanStack Query's
 * react-router pattern) without blocking navigation; the page reads the same queryOptions, and
 * does not ask again for what its loader read (lib/query-client, notReadThisVisit).
 * Nothing is fetched without a stored token: the auth guard deals with that case.
 */
function whenSignedIn(prefetch: (args: LoaderFunctionArgs) => void | Promise<void>) {
  return async (args: LoaderFunctionArgs) => {
    if (sessionStore.get().token) await prefetch(args);
    return null;
  };
}

/**
 * The plan decides the banners at the top of the dashboard and the vendor pages (the upgrade
 * card, 'Free account limit reached'): a first visit waits for it, so that they do not push the
 * page down when they come. Once it is cached, it is read again without waiting. Never throws:
 * the page shows a failure.
 */
async function planFirst() {
  const paymentStatus = getPaymentStatusQueryOptions();
  if (client.getQueryData(paymentStatus.queryKey) === undefined) await client.prefetchQuery(paymentStatus);
  else void client.prefetchQuery(paymentStatus);
}

export const loaders = {
  dashboard: whenSignedIn(async () => {
    // The stat cards and both charts read the stats; the vendor table its first page.
    void client.prefetchQuery(getDashboardStatsQueryOptions());
    void client.prefetchQuery(getVendorPageQueryOptions(FIRST_VENDOR_PAGE));
    void client.prefetchQuery(getActivityLogsQueryOptions(RECENT_ACTIVITY_LIMIT));
    await planFirst();
  }),
  vendors: whenSignedIn(async () => {
    void client.prefetchQuery(getVendorPageQueryOptions(FIRST_VENDOR_PAGE));
    await planFirst();
  }),
  vendor: whenSignedIn(({ params }) => {
    if (params.id) void client.prefetchQuery(getVendorQueryOptions(params.id));
  }),
  documents: whenSignedIn(() => void client.prefetchQuery(getDocumentPageQueryOptions(FIRST_DOCUMENT_PAGE))),
  activity: whenSignedIn(() => void client.prefetchQuery(getActivityPageQueryOptions(FIRST_ACTIVITY_PAGE))),
  reminders: whenSignedIn(() => void client.prefetchQuery(getReminderPageQueryOptions(FIRST_REMINDER_PAGE))),
  reports: whenSignedIn(() => {
    void client.prefetchQuery(getComplianceReportQueryOptions());
    // A plan known to be Free would only be refused (402) three more times.
    if (client.getQueryData(getPaymentStatusQueryOptions().queryKey)?.plan === 'free') return;
    void client.prefetchQuery(getExpirationsReportQueryOptions());
    void client.prefetchQuery(getNonCompliantReportQueryOptions());
    void client.prefetchQuery(getResponsivenessReportQueryOptions());
  }),
  /** Admin reads only for admins: anyone else is shown the no-access message and nothing is asked. */
  admin: whenSignedIn(() => {
    if (sessionStore.get().user?.role !== 'admin') return;
    void client.prefetchQuery(getBlogStatsQueryOptions());
    void client.prefetchQuery(getAdminBlogPostsQueryOptions(0));
    void client.prefetchQuery(getContentStatsQueryOptions());
    void client.prefetchQuery(getKeywordCountQueryOptions());
    void client.prefetchQuery(getKeywordSuggestionsQueryOptions());
    void client.prefetchQuery(getWeeklyPlanQueryOptions());
    void client.prefetchQuery(getGenerationJobsQueryOptions());
  }),
  billing: whenSignedIn(() => {
    void client.prefetchQuery(getPaymentStatusQueryOptions());
    void client.prefetchQuery(getPublicConfigQueryOptions());
  }),
};
