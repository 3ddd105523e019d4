import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import type { ApiKey, NewApiKey, NewWebhook, Webhook, WebhookDelivery, WebhookEvent } from '@/types/api';
import { accountFromRequest, db, type MockAccount } from '../db';
import { apiError, unauthorized } from '../utils';

/** API keys, webhooks and the calendar feed, as the server answers them. */

const EVENTS: readonly WebhookEvent[] = [
  'vendor.created',
  'vendor.updated',
  'vendor.deleted',
  'document.uploaded',
  'document.expiring',
  'document.expired',
  'vendor.status_changed',
  'vendor.gaps_changed',
];

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
let counter = 0;

function randomText(length: number): string {
  return Array.from({ length }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join('');
}

/** The signed-in admin or owner; a refusal otherwise. */
function manager(request: Request): MockAccount | Response {
  const account = accountFromRequest(request);
  if (!account) return unauthorized();
  if (account.orgRole !== 'admin' && account.orgRole !== 'owner') {
    return apiError(403, 'forbidden_role', 'Only admins and the owner of your team can do this.');
  }
  return account;
}

/** Whether the address is on a private network or this machine, where no webhook may go. */
function privateAddress(url: URL): boolean {
  const host = url.hostname;
  return (
    host === 'localhost' ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host)
  );
}

function calendarUrl(request: Request): string {
  return `${new URL(request.url).origin}/api/calendar/${db.integrations.calendarToken}.ics`;
}

export const integrationHandlers = [
  http.get('/api/api-keys', ({ request }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    return HttpResponse.json(db.integrations.apiKeys);
  }),
  http.post('/api/api-keys', async ({ request }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    const body = (await request.json()) as { name?: string; scope?: string };
    const name = (body.name ?? '').trim();
    if (!name || name.length > 100) {
      const message = 'Enter a name of 1 to 100 characters.';
      return apiError(422, 'validation_failed', message, { name: [message] });
    }
    if (body.scope !== 'read' && body.scope !== 'write') {
      const message = 'Choose read or write.';
      return apiError(422, 'validation_failed', message, { scope: [message] });
    }
    counter += 1;
    const key = `vwk_${randomText(40)}`;
    const created: NewApiKey = {
      id: `key-${counter}`,
      name,
      scope: body.scope,
      prefix: key.slice(0, 8),
      createdAt: new Date().toISOString(),
      createdBy: account.name,
      lastUsedAt: null,
      key,
    };
    const { key: _key, ...listed } = created;
    db.integrations.apiKeys = [listed satisfies ApiKey, ...db.integrations.apiKeys];
    return HttpResponse.json(created, { status: 201 });
  }),
  http.delete('/api/api-keys/{id}', ({ request, params }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    if (!db.integrations.apiKeys.some((k) => k.id === params.id)) return apiError(404, 'not_found', 'No such API key.');
    db.integrations.apiKeys = db.integrations.apiKeys.filter((k) => k.id !== params.id);
    return new HttpResponse(null, { status: 204 });
  }),

  http.get('/api/webhooks', ({ request }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    return HttpResponse.json(db.integrations.webhooks);
  }),
  http.post('/api/webhooks', async ({ request }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    const body = (await request.json()) as { url?: string; events?: string[] };
    let url: URL | null = null;
    try {
      url = new URL(body.url ?? '');
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      const message = 'Enter an http or https address.';
      return apiError(422, 'validation_failed', message, { url: [message] });
    }
    if (privateAddress(url)) {
      const message = 'This address is private: webhooks go only to public addresses.';
      return apiError(422, 'validation_failed', message, { url: [message] });
    }
    const events = body.events ?? [];
    if (events.length === 0 || events.some((e) => !EVENTS.includes(e as WebhookEvent))) {
      const message = 'Choose at least one event.';
      return apiError(422, 'validation_failed', message, { events: [message] });
    }
    counter += 1;
    const created: NewWebhook = {
      id: `webhook-${counter}`,
      url: body.url ?? '',
      events: events as WebhookEvent[],
      createdAt: new Date().toISOString(),
      lastDelivery: null,
      secret: `whsec_${randomText(32)}`,
    };
    const { secret: _secret, ...listed } = created;
    db.integrations.webhooks = [...db.integrations.webhooks, listed satisfies Webhook];
    return HttpResponse.json(created, { status: 201 });
  }),
  http.get('/api/webhooks/{id}', ({ request, params }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    const webhook = db.integrations.webhooks.find((w) => w.id === params.id);
    return webhook ? HttpResponse.json(webhook) : apiError(404, 'not_found', 'No such webhook.');
  }),
  http.delete('/api/webhooks/{id}', ({ request, params }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    if (!db.integrations.webhooks.some((w) => w.id === params.id)) return apiError(404, 'not_found', 'No such webhook.');
    db.integrations.webhooks = db.integrations.webhooks.filter((w) => w.id !== params.id);
    db.integrations.deliveries.delete(String(params.id));
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('/api/webhooks/{id}/deliveries', ({ request, params }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    if (!db.integrations.webhooks.some((w) => w.id === params.id)) return apiError(404, 'not_found', 'No such webhook.');
    return HttpResponse.json((db.integrations.deliveries.get(String(params.id)) ?? []).slice(0, 50));
  }),
  http.post('/api/webhooks/{id}/test', ({ request, params }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    const webhook = db.integrations.webhooks.find((w) => w.id === params.id);
    if (!webhook) return apiError(404, 'not_found', 'No such webhook.');
    counter += 1;
    const now = new Date().toISOString();
    const delivery: WebhookDelivery = {
      id: `delivery-${counter}`,
      eventId: `event-${counter}`,
      type: 'ping',
      status: 'pending',
      attempts: 0,
      responseStatus: null,
      responseSnippet: null,
      error: null,
      createdAt: now,
      lastAttemptAt: null,
      nextAttemptAt: now,
    };
    db.integrations.deliveries.set(webhook.id, [delivery, ...(db.integrations.deliveries.get(webhook.id) ?? [])]);
    webhook.lastDelivery = { status: 'pending', at: now };
    return HttpResponse.json(delivery, { status: 202 });
  }),

  http.get('/api/calendar-feed', ({ request }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    return HttpResponse.json({ url: calendarUrl(request) });
  }),
  http.post('/api/calendar-feed/rotate', ({ request }) => {
    const account = manager(request);
    if (account instanceof Response) return account;
    counter += 1;
    db.integrations.calendarToken = `cal-token-${counter}-${randomText(6)}`;
    return HttpResponse.json({ url: calendarUrl(request) });
  }),
];
