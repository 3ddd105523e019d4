import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { ReportDays } from '@/types/api';
import { accountFromRequest, db } from '../db';
import { buildComplianceReport } from '../fixtures';
import { apiError, unauthorized } from '../utils';

export const PLAN_REQUIRED_MESSAGE = 'Reports are part of the Professional plan. Upgrade to see them.';

type Info = Parameters<Parameters<typeof http.get>[1]>[0];

/** Every report call: signed in, Professional, then JSON or, with format=csv, a CSV file. */
function report(name: string, json: (url: URL) => JsonBodyType) {
  return ({ request }: Info) => {
    if (!accountFromRequest(request)) return unauthorized();
    if (db.plan.plan !== 'professional') return apiError(402, 'plan_required', PLAN_REQUIRED_MESSAGE);
    const url = new URL(request.url);
    if (url.searchParams.get('format') === 'csv') {
      return new HttpResponse(`report\n${name}\n`, {
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="${name}-report.csv"` },
      });
    }
    return HttpResponse.json(json(url));
  };
}

export const reportHandlers = [
  http.get(
    '*/api/reports/compliance',
    report('compliance', (url) => {
      const days = Number(url.searchParams.get('days') ?? 30) as ReportDays;
      return db.reports.compliance[days] ?? buildComplianceReport({ days });
    }),
  ),
  http.get(
    '*/api/reports/expirations',
    report('expirations', () => db.reports.expirations),
  ),
  http.get(
    '*/api/reports/non-compliant',
    report('non-compliant', (url) => {
      const status = url.searchParams.get('status');
      const serviceType = url.searchParams.get('serviceType');
      return db.reports.nonCompliant.filter(
        (v) => (!status || v.status === status) && (!serviceType || v.serviceType === serviceType),
      );
    }),
  ),
  http.get(
    '*/api/reports/responsiveness',
    report('responsiveness', () => db.reports.responsiveness),
  ),
];
