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
  });
  it('capitalises service types', () => {
    expect(formatServiceType('general-contractor')).toBe('General Contractor');
    expect(formatServiceType('hvac')).toBe('Hvac');
  });
});
