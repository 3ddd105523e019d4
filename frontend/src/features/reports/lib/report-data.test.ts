import { describe, expect, it } from 'vitest';
import { buildComplianceReport } from '@/testing/mocks/fixtures';
import { formatRate, formatRateChange, gaps, gapText, reasonText, trendDays } from './report-data';

describe('report data', () => {
  it('puts snapshots and missing days in date order without filling anything in', () => {
    const report = buildComplianceReport({ days: 30, end: '2025-01-10', missing: ['2025-01-02', '2024-12-31'] });
    const days = trendDays(report);
    expect(days).toHaveLength(30);
    expect(days[0].date).toBe('2024-12-12');
    expect(days.filter((d) => d.point === null).map((d) => d.date)).toEqual(['2024-12-31', '2025-01-02']);
  });

  it('finds runs of missing days, at the edges too', () => {
    const days = ['01', '02', '03', '04', '05', '06'].map((d, i) => ({
      date: `2025-01-${d}`,
      point: [0, 2, 3, 5].includes(i) ? null : buildComplianceReport().points[0],
    }));
    expect(gaps(days).map((g) => [g.startDate, g.endDate, g.length])).toEqual([
      ['2025-01-01', '2025-01-01', 1],
      ['2025-01-03', '2025-01-04', 2],
      ['2025-01-06', '2025-01-06', 1],
    ]);
  });

  it('words gaps, rates and changes', () => {
    expect(gapText({ length: 1, startDate: '2025-03-20', endDate: '2025-03-20' })).toBe('No data for 1 day (Mar 20, 2025)');
    expect(gapText({ length: 4, startDate: '2024-12-30', endDate: '2025-01-02' })).toBe(
      'No data for 4 days (Dec 30, 2024 – Jan 2, 2025)',
    );
    expect(formatRate(83.333)).toBe('83.3%');
    expect(formatRate(100)).toBe('100%');
    expect(formatRate(null)).toBe('N/A');
    expect(formatRateChange(5)).toBe('+5 percentage points');
    expect(formatRateChange(-2.46)).toBe('-2.5 percentage points');
    expect(formatRateChange(1)).toBe('+1 percentage point');
    expect(formatRateChange(0.01)).toBe('No change');
    expect(formatRateChange(null)).toBe('Not enough data to compare');
  });

  it('puts coded reasons into words and keeps sentences as they are', () => {
    expect(reasonText('missing:w9')).toBe('W-9 Form missing');
    expect(reasonText('expired:coi_general_liability')).toBe('COI - General expired');
    expect(reasonText('expiring_soon:vendor_agreement')).toBe('Vendor Agreement expiring soon');
    expect(reasonText('no_documents')).toBe('No documents on file');
    expect(reasonText('expired')).toBe('Expired');
    expect(reasonText('insurance_lapsed')).toBe('Insurance lapsed');
    expect(reasonText('The W-9 form has not been uploaded.')).toBe('The W-9 form has not been uploaded.');
  });
});
