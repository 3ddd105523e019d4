import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';

export const configHandlers = [
  http.get('/api/config', () =>
    HttpResponse.json({
      supportEmail: 'help@vendorwatch.test',
      plans: {
        free: { vendorLimit: 2, documentsPerVendor: 10, priceCents: 0, seats: 2 },
        professional: { vendorLimit: 25, documentsPerVendor: null, priceCents: 2900, seats: 10 },
      },
    }),
  ),
];
