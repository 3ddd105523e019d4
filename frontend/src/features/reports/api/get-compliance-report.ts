import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ComplianceReport, ReportDays } from '@/types/api';
import { reportKeys } from './keys';

export const REPORT_DAYS: readonly ReportDays[] = [30, 90, 365];
export const DEFAULT_REPORT_DAYS: ReportDays = 30;

export function getComplianceReport(days: ReportDays): Promise<ComplianceReport> {
  return api.get<ComplianceReport>('/api/reports/compliance', { params: { days } });
}

export function getComplianceReportQueryOptions(days: ReportDays = DEFAULT_REPORT_DAYS) {
  return queryOptions({ queryKey: reportKeys.compliance(days), queryFn: () => getComplianceReport(days) });
}

/** Keeps the last period on screen while another one loads, so the chart does not jump to a spinner. */
export function useComplianceReport(days: ReportDays) {
  return useQuery({ ...getComplianceReportQueryOptions(days), placeholderData: keepPreviousData });
}
