import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatServiceType } from './format';

describe('date formatting', () => {
  it("formats dates as 'MMM d, yyyy'", () => {
    expect(formatDate('2025-01-05')).toBe('Jan 5, 2025');
  });
  it("shows 'N/A' for a missing date and 'Invalid date' for garbage", () => {
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate(undefined)).toBe('N/A');
    expect(formatDate('')).toBe('N/A');
    expect(formatDate('not a date')).toBe('Invalid date');
  });
  it("formats instants like 'Jan 5, 2025 - 3:07 PM'", () => {
    expect(formatDateTime(new Date(2025, 0, 5, 15, 7))).toBe('Jan 5, 2025 - 3:07 PM');
    expect(formatDateTime(new Date(2025, 8, 30, 0, 5))).toBe('Sep 30, 2025 - 12:05 AM');
    expect(formatDateTime(new Date(2025, 4, 1, 12, 0))).toBe('May 1, 2025 - 12:00 PM');
  });
  it("formats the short shapes 'MMM d' and 'yyyy-MM-dd'", () => {
    expect(formatDate('2025-12-31', 'MMM d')).toBe('Dec 31');
    expect(formatDate(new Date(2025, 1, 3, 23, 59), 'yyyy-MM-dd')).toBe('2025-02-03');
  });
  it('capitalises service types', () => {
    expect(formatServiceType('general-contractor')).toBe('General Contractor');
    expect(formatServiceType('hvac')).toBe('HVAC');
    expect(formatServiceType('HVAC')).toBe('HVAC');
  });
});
