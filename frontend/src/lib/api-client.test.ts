import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { api, fileNameFromDisposition } from './api-client';
import { ApiError } from './api-error';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('api client', () => {
  it('sends the stored bearer token and parses JSON', async () => {
    window.localStorage.setItem('token', 'abc');
    let auth: string | null = null;
    server.use(
      http.get('*/api/thing', ({ request }) => {
        auth = request.headers.get('Authorization');
        return HttpResponse.json({ ok: true });
      }),
    );
    await expect(api.get('/api/thing')).resolves.toEqual({ ok: true });
    expect(auth).toBe('Bearer abc');
  });

  it('sends no authorization header without a token', async () => {
    let auth: string | null = 'unset';
    server.use(
      http.get('*/api/thing', ({ request }) => {
        auth = request.headers.get('Authorization');
        return HttpResponse.json([]);
      }),
    );
    await api.get('/api/thing');
    expect(auth).toBeNull();
  });

  it('sends JSON bodies and query parameters, skipping empty ones', async () => {
    let seen: { url: string; body: unknown; type: string | null } | null = null;
    server.use(
      http.post('*/api/thing', async ({ request }) => {
        seen = { url: request.url, body: await request.json(), type: request.headers.get('Content-Type') };
        return HttpResponse.json({ id: '1' }, { status: 201 });
      }),
    );
    await api.post('/api/thing', { name: 'x' }, { params: { q: 'acme', status: '', limit: 4 } });
    expect(seen).toEqual({
      url: 'http://localhost:3000/api/thing?q=acme&limit=4',
      body: { name: 'x' },
      type: 'application/json',
    });
  });

  it('returns undefined for 204 No Content', async () => {
    server.use(http.delete('*/api/thing/1', () => new HttpResponse(null, { status: 204 })));
    await expect(api.delete('/api/thing/1')).resolves.toBeUndefined();
  });

  it('maps the error envelope to status, code, message and field errors', async () => {
    server.use(
      http.post('*/api/thing', () =>
        HttpResponse.json(
          { error: 'validation_failed', message: 'Some fields are invalid.', errors: { email: ['Invalid email address'] } },
          { status: 422 },
        ),
      ),
    );
    const error = await failure(api.post('/api/thing', {}));
    expect(error.status).toBe(422);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('Some fields are invalid.');
    expect(error.errors).toEqual({ email: ['Invalid email address'] });
    expect(error.fieldError('email')).toBe('Invalid email address');
  });

  it('maps a 402 plan limit', async () => {
    server.use(
      http.post('*/api/vendors', () =>
        HttpResponse.json({ error: 'plan_limit', message: 'Free accounts are limited to 2 vendors maximum.' }, { status: 402 }),
      ),
    );
    const error = await failure(api.post('/api/vendors', {}));
    expect([error.status, error.code, error.message]).toEqual([
      402,
      'plan_limit',
      'Free accounts are limited to 2 vendors maximum.',
    ]);
  });

  it("falls back to '{status}: {response text}' without an envelope", async () => {
    server.use(http.get('*/api/thing', () => new HttpResponse('Backend exploded', { status: 500 })));
    const error = await failure(api.get('/api/thing'));
    expect(error.message).toBe('500: Backend exploded');
    expect(error.code).toBe('http_500');
  });

  it("falls back to '{status}: {status text}' when the body is empty", async () => {
    server.use(http.get('*/api/thing', () => new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' })));
    const error = await failure(api.get('/api/thing'));
    expect(error.message).toBe('503: Service Unavailable');
    expect(error.status).toBe(503);
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    server.use(http.get('*/api/thing', () => HttpResponse.error()));
    const error = await failure(api.get('/api/thing'));
    expect(error.status).toBe(0);
    expect(error.code).toBe('network_error');
  });

  it('downloads files with the file name from Content-Disposition', async () => {
    window.localStorage.setItem('token', 'abc');
    server.use(
      http.get(
        '*/api/documents/d1/download',
        () =>
          new HttpResponse('PDFDATA', {
            headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="w9 form.pdf"' },
          }),
      ),
    );
    const file = await api.file('/api/documents/d1/download');
    expect(file.fileName).toBe('w9 form.pdf');
    expect(file.contentType).toBe('application/pdf');
    expect(await file.blob.text()).toBe('PDFDATA');
  });

  it("refuses to fetch files without a token ('Authentication token not found')", async () => {
    const error = await failure(api.file('/api/documents/d1/download'));
    expect(error.message).toBe('Authentication token not found');
  });
});

describe('fileNameFromDisposition', () => {
  it.each([
    [null, 'document'],
    ['attachment', 'document'],
    ['attachment; filename="a.pdf"', 'a.pdf'],
    ['attachment; filename=b.pdf', 'b.pdf'],
    [`attachment; filename="fallback.pdf"; filename*=UTF-8''%C3%A9t%C3%A9.pdf`, 'été.pdf'],
    ['attachment; filename="quo\\"te.pdf"', 'quo"te.pdf'],
  ])('%s -> %s', (header, expected) => {
    expect(fileNameFromDisposition(header)).toBe(expected);
  });
});
