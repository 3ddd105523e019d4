import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import type { ReportDays } from '@/types/api';
import type { paths } from '@/types/openapi';
import { accountFromRequest, db } from '../db';
import { buildComplianceReport } from '../fixtures';
import { apiError, unauthorized, xlsxFile } from '../utils';

export const PLAN_REQUIRED_MESSAGE = 'Reports are part of the Professional plan. Upgrade to see them.';

type ReportPath =
  '/api/reports/compliance' | '/api/reports/expirations' | '/api/reports/non-compliant' | '/api/reports/responsiveness';
/** A report's JSON answer, as the document states it. */
type ReportBody<P extends ReportPath> = paths[P]['get']['responses'][200]['content']['application/json'];

/** Every report call: signed in, Professional, then JSON or, with format=csv or xlsx, a CSV file or a workbook. */
function report<P extends ReportPath>(name: string, json: (url: URL) => ReportBody<P>) {
  return ({ request }: { request: Request }) => {
    if (!accountFromRequest(request)) return unauthorized();
    if (db.plan.plan !== 'professional') return apiError(402, 'plan_required', PLAN_REQUIRED_MESSAGE);
    const url = new URL(request.url);
    if (url.searchParams.get('format') === 'xlsx') return xlsxFile(`${name}-report.xlsx`);
    if (url.searchParams.get('format') === 'csv') {
      return new HttpResponse<string>(`report\n${name}\n`, {
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="${name}-report.csv"` },
      });
    }
    return HttpResponse.json<ReportBody<P>>(json(url));
  };
}

export const reportHandlers = [
  http.get(
    '/api/reports/compliance',
    report<'/api/reports/compliance'>('compliance', (url) => {
      const days = Number(url.searchParams.get('days') ?? 30) as ReportDays;
      return db.reports.compliance[days] ?? buildComplianceReport({ days });
    }),
  ),
  http.get(
    '/api/reports/expirations',
    report<'/api/reports/expirations'>('expirations', () => db.reports.expirations),
  ),
  http.get(
    '/api/reports/non-compliant',
    report<'/api/reports/non-compliant'>('non-compliant', (url) => {
      const status = url.searchParams.get('status');
      const serviceType = url.searchParams.get('serviceType');
      return db.reports.nonCompliant.filter(
        (v) => (!status || v.status === status) && (!serviceType || v.serviceType === serviceType),
      );
    }),
  ),
  http.get(
    '/api/reports/responsiveness',
    report<'/api/reports/responsiveness'>('responsiveness', () => db.reports.responsiveness),
  ),
];
