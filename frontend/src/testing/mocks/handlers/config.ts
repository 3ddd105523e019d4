import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { db } from '../db';

export const configHandlers = [
  http.get('/api/config', () =>
    HttpResponse.json({
      supportEmail: 'help@vendorwatch.test',
      plans: {
        free: { vendorLimit: 2, documentsPerVendor: 10, priceCents: 0, seats: 2, aiReadingsPerMonth: 10 },
        professional: { vendorLimit: 25, documentsPerVendor: null, priceCents: 2900, seats: 10, aiReadingsPerMonth: 200 },
      },
      // One AI key serves the blog's drafts and the reading of certificates.
      aiReading: db.content.aiConfigured,
    }),
  ),
];
