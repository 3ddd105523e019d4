import { describe, expect, it } from 'vitest';
import { buildDocument, buildVendor, slots } from '@/testing/mocks/fixtures';
import { documentStatusCounts, expirationBuckets } from './chart-data';

describe('chart data', () => {
  it('counts documents by status and requested slots without a document as missing', () => {
    const docs = [
      buildDocument({ status: 'current' }),
      buildDocument({ status: 'expired' }),
      buildDocument({ status: 'expiring_soon' }),
    ];
    const vendor = buildVendor({ slots: slots({ w9: 'current' }) });
    // six requested slots, one filled; 'other' is not requested
    expect(documentStatusCounts(docs, [vendor])).toEqual({ current: 1, expiring_soon: 1, expired: 1, missing: 5 });
  });

  it('puts expirations of the next 90 days into six 15-day buckets', () => {
    const today = new Date(2025, 0, 1);
    const docs = [
      buildDocument({ expirationDate: '2025-01-01' }),
      buildDocument({ expirationDate: '2025-01-15' }),
      buildDocument({ expirationDate: '2025-01-16' }),
      buildDocument({ expirationDate: '2025-03-31' }),
      buildDocument({ expirationDate: '2025-04-01' }),
      buildDocument({ expirationDate: '2024-12-31' }),
      buildDocument({ expirationDate: null }),
    ];
    const buckets = expirationBuckets(docs, today);
    expect(buckets.map((b) => b.label)).toEqual(['Jan 1', 'Jan 16', 'Jan 31', 'Feb 15', 'Mar 2', 'Mar 17']);
    expect(buckets.map((b) => b.count)).toEqual([2, 1, 0, 0, 0, 1]);
  });
});
