import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { accountFromRequest, db } from '../db';
import { apiError, unauthorized } from '../utils';

export const CHECKOUT_URL = 'https://checkout.stripe.test/c/pay/cs_test_1';
export const BILLING_PORTAL_URL = 'https://billing.stripe.test/p/session/bps_test_1';

const billingOff = () =>
  apiError(
    503,
    'billing_not_configured',
    'Online payment is not configured on this server. An administrator can change the plan.',
  );

/** Stripe as the server sees it: checkout, confirmation of a paid session, the customer portal. */
export const billingHandlers = [
  http.post('/api/create-subscription', ({ request }) => {
    if (!accountFromRequest(request)) return unauthorized();
    if (!db.billing.billingEnabled) return billingOff();
    if (db.plan.plan === 'professional')
      return apiError(409, 'already_professional', 'Your organization is already on the Professional plan.');
    return HttpResponse.json({ url: CHECKOUT_URL });
  }),
  http.post('/api/upgrade-to-professional', async ({ request }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (!db.billing.billingEnabled) return billingOff();
    const body = (await request.json().catch(() => ({}))) as { sessionId?: string };
    if (!body.sessionId || !db.billing.paidSessions.includes(body.sessionId)) {
      return apiError(402, 'payment_not_confirmed', 'Stripe has not confirmed this payment.');
    }
    db.plan = { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null };
    db.billing.hasCustomer = true;
    account.plan = 'professional';
    return HttpResponse.json({ success: true, plan: 'professional' });
  }),
  http.post('/api/billing/portal', ({ request }) => {
    if (!accountFromRequest(request)) return unauthorized();
    if (!db.billing.billingEnabled) return billingOff();
    if (!db.billing.hasCustomer) return apiError(409, 'no_billing_account', 'Your organization has no billing account yet.');
    return HttpResponse.json({ url: BILLING_PORTAL_URL });
  }),
];
