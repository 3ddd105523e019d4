/**
 * Reads the entry (src/main.tsx) starts before the app's code has arrived, for the first GET of
 * the same address by the API client (./api-client) to take instead of asking again: the session
 * check and the plan a signed-in page waits for, which would otherwise wait for the app to load
 * and run. Each is taken once, with the same token, within a few seconds; else it is dropped.
 */
type EarlyRead = { authorization: string; started: number; response: Promise<Response> };

const MAX_AGE_MS = 10_000;
const reads = new Map<string, EarlyRead>();

/** Starts a GET of each path (same-origin API addresses) with `token`, as the API client sends it. */
export function readEarly(paths: readonly string[], token: string) {
  const authorization = `Bearer ${token}`;
  const started = Date.now();
  for (const path of paths) {
    const url = new URL(path, window.location.origin).toString();
    const response = fetch(url, {
      method: 'GET',
      headers: { Accept: 'application/json', Authorization: authorization },
      credentials: 'include',
    });
    // Left untaken, a failure is nobody's to report.
    response.catch(() => undefined);
    reads.set(url, { authorization, started, response });
  }
}

/** The early read of `url` made with `authorization`, once; null when there is none to take. */
export function takeEarlyRead(url: string, authorization: string | undefined): Promise<Response> | null {
  const read = reads.get(url);
  if (!read) return null;
  reads.delete(url);
  if (read.authorization !== authorization || Date.now() - read.started > MAX_AGE_MS) return null;
  return read.response;
}
