import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { api } from './api-client';
import { readEarly } from './early-reads';

function countRequests() {
  const seen: Array<string | null> = [];
  server.use(
    http.get('*/api/early', ({ request }) => {
      seen.push(request.headers.get('Authorization'));
      return HttpResponse.json({ n: seen.length });
    }),
  );
  return seen;
}

describe('early reads', () => {
  it('are taken by the first GET of the same address with the same token, once', async () => {
    window.localStorage.setItem('token', 'abc');
    const seen = countRequests();
    readEarly(['/api/early'], 'abc');
    await expect(api.get('/api/early')).resolves.toEqual({ n: 1 });
    await expect(api.get('/api/early')).resolves.toEqual({ n: 2 });
    expect(seen).toEqual(['Bearer abc', 'Bearer abc']);
  });

  it('are not taken with another token, or once too old', async () => {
    const seen = countRequests();
    window.localStorage.setItem('token', 'other');
    readEarly(['/api/early'], 'abc');
    await expect(api.get('/api/early')).resolves.toEqual({ n: 2 });
    expect(seen).toEqual(['Bearer abc', 'Bearer other']);

    // Started long ago: the API client asks again.
    window.localStorage.setItem('token', 'abc');
    vi.spyOn(Date, 'now').mockReturnValueOnce(0);
    readEarly(['/api/early'], 'abc');
    await api.get('/api/early');
    await vi.waitFor(() => expect(seen).toHaveLength(4));
  });

  it('are not taken by a read with query parameters of its own', async () => {
    window.localStorage.setItem('token', 'abc');
    const seen = countRequests();
    readEarly(['/api/early'], 'abc');
    await api.get('/api/early', { params: { page: 2 } });
    await vi.waitFor(() => expect(seen).toHaveLength(2));
  });
});
