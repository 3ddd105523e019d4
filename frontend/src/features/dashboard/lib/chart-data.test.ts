import { describe, expect, it } from 'vitest';
import { documentStatusCounts, expirationBuckets } from './chart-data';

describe('chart data', () => {
  it("takes the documents by status from the server's figures, its missing count included", () => {
    const documentsByStatus = { current: 4, expiringSoon: 2, expired: 3, missing: 5 };
    expect(documentStatusCounts({ documentsByStatus })).toEqual({ current: 4, expiring_soon: 2, expired: 3, missing: 5 });
  });

  it("labels the server's six 15-day spans by their first day, as calendar dates", () => {
    const starts = ['2025-01-01', '2025-01-16', '2025-01-31', '2025-02-15', '2025-03-02', '2025-03-17'];
    const ends = ['2025-01-15', '2025-01-30', '2025-02-14', '2025-03-01', '2025-03-16', '2025-03-31'];
    const counts = [2, 1, 0, 0, 0, 1];
    const upcomingExpirations = starts.map((start, i) => ({ start, end: ends[i], count: counts[i] }));
    const buckets = expirationBuckets({ upcomingExpirations });
    expect(buckets.map((b) => b.label)).toEqual(['Jan 1', 'Jan 16', 'Jan 31', 'Feb 15', 'Mar 2', 'Mar 17']);
    expect(buckets.map((b) => b.count)).toEqual(counts);
    expect(buckets[5]).toEqual({ label: 'Mar 17', start: '2025-03-17', end: '2025-03-31', count: 1 });
  });
});
