import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { accountFromRequest, createAccount, db, issueToken, publicUser } from '../db';
import { apiError, unauthorized } from '../utils';

type Credentials = { email?: string; password?: string; name?: string; company?: string; timeZone?: string };

/** The zones the mock server knows: the browser's list (the real server reads the tz database). */
function knownZone(zone: string): boolean {
  const supported = (Intl as { supportedValuesOf?: (key: 'timeZone') => string[] }).supportedValuesOf;
  return zone === 'UTC' || (supported ? supported('timeZone').includes(zone) : false);
}

export const authHandlers = [
  http.post('/api/auth/login', async ({ request }) => {
    const body = (await request.json()) as Credentials;
    const account = db.accounts.find((a) => a.email === body.email && a.password === body.password);
    if (!account) return apiError(401, 'invalid_credentials', 'Invalid email or password.');
    return HttpResponse.json({ token: issueToken(account), user: publicUser(account) });
  }),
  http.post('/api/auth/register', async ({ request }) => {
    const body = (await request.json()) as Credentials;
    if (db.accounts.some((a) => a.email === body.email)) {
      return apiError(409, 'email_taken', 'An account with this email already exists.');
    }
    const account = createAccount({
      name: body.name ?? '',
      email: body.email ?? '',
      password: body.password ?? '',
      company: body.company ?? null,
      timeZone: body.timeZone || 'UTC',
    });
    return HttpResponse.json({ token: issueToken(account), user: publicUser(account) }, { status: 201 });
  }),
  http.get('/api/auth/me', ({ request }) => {
    const account = accountFromRequest(request);
    return account ? HttpResponse.json(publicUser(account)) : unauthorized();
  }),
  http.post('/api/auth/logout', ({ request }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    // Ends this token only, like the server: the account's other tokens go on.
    db.tokens.delete((request.headers.get('Authorization') ?? '').replace(/^Bearer\s+/i, ''));
    return new HttpResponse(null, { status: 204 });
  }),
  http.put('/api/account/preferences', async ({ request }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    const body = (await request.json().catch(() => ({}))) as { weeklySummary?: unknown; reminderEmails?: unknown };
    const given = [body.weeklySummary, body.reminderEmails].filter((value) => value !== undefined);
    if (given.length === 0 || given.some((value) => typeof value !== 'boolean')) {
      return apiError(422, 'validation_failed', 'Some fields are invalid.', { weeklySummary: ['Must be true or false'] });
    }
    if (typeof body.weeklySummary === 'boolean') account.weeklySummary = body.weeklySummary;
    if (typeof body.reminderEmails === 'boolean') account.reminderEmails = body.reminderEmails;
    return HttpResponse.json(publicUser(account));
  }),
  http.put('/api/account/organization', async ({ request }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    const body = (await request.json().catch(() => ({}))) as { timeZone?: unknown };
    if (typeof body.timeZone !== 'string' || !knownZone(body.timeZone)) {
      return apiError(422, 'validation_failed', 'Choose a time zone from the list.', {
        timeZone: ['Choose a time zone from the list.'],
      });
    }
    account.timeZone = body.timeZone;
    return HttpResponse.json(publicUser(account));
  }),
  http.post('/api/auth/forgot', () =>
    HttpResponse.json({ message: 'If an account exists for that email, we sent a link to reset your password.' }),
  ),
  http.post('/api/auth/reset', async ({ request }) => {
    const body = (await request.json()) as { token?: string };
    if (body.token !== 'good-token') return apiError(422, 'validation_failed', 'This reset link has expired or is invalid.');
    return HttpResponse.json({ message: 'Your password has been updated.' });
  }),
];
