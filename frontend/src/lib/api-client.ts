import { ApiError, MISSING_TOKEN, networkError, toApiError } from './api-error';
import type { Page } from '@/types/api';
import { takeEarlyRead } from './early-reads';
import { getStoredToken } from './storage';

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export type RequestOptions = {
  params?: QueryParams;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Builds an absolute same-origin URL, dropping empty query values. */
export function buildUrl(path: string, params?: QueryParams): string {
  const url = new URL(path, window.location.origin);
  if (params) {
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined || value === null || value === '') continue;
      url.searchParams.set(key, String(value));
    }
  }
  return url.toString();
}

export function authHeaders(): Record<string, string> {
  const token = getStoredToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function send(method: Method, path: string, body: unknown, options: RequestOptions) {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...authHeaders(),
    ...options.headers,
  };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const url = buildUrl(path, options.params);
  // A read the entry started before the app had loaded (./early-reads), with the same headers.
  const early = method === 'GET' && !options.headers && !options.signal ? takeEarlyRead(url, headers.Authorization) : null;
  let response: Response;
  try {
    response = await (early ??
      fetch(url, {
        method,
        headers,
        body: payload,
        credentials: 'include',
        signal: options.signal,
      }));
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw networkError(cause);
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function request<T>(method: Method, path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, body, options);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(response.status, 'invalid_response', `${response.status}: ${response.statusText || 'Invalid response'}`);
  }
}

/** A list read whose total is in the X-Total-Count header (the items' count without one). */
async function page<T>(path: string, options: RequestOptions = {}): Promise<Page<T>> {
  const response = await send('GET', path, undefined, options);
  const items = (await response.json()) as T[];
  const header = Number(response.headers.get('X-Total-Count'));
  return { items, total: Number.isFinite(header) && response.headers.has('X-Total-Count') ? header : items.length };
}

export type FileResponse = {
  blob: Blob;
  fileName: string;
  contentType: string;
};

/** Reads the file name of an RFC 6266 Content-Disposition header (filename* wins). */
export function fileNameFromDisposition(header: string | null, fallback = 'document'): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star?.[2]) {
    try {
      return decodeURIComponent(star[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("((?:\\.|[^"\\])*)"|[^;]+)/i.exec(header);
  if (plain) {
    const value = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : (plain[1] ?? '').trim();
    if (value) return value;
  }
  return fallback;
}

export type FileRequestOptions = RequestOptions & {
  /** POST sends `body` as JSON (the ZIP of several documents); GET by default. */
  method?: 'GET' | 'POST';
  body?: unknown;
  /** The name when the response has no Content-Disposition file name ('document' by default). */
  fallbackName?: string;
};

/** Fetches a protected file as a blob with the bearer token (downloads, exports and the viewer). */
async function file(path: string, options: FileRequestOptions = {}): Promise<FileResponse> {
  if (!getStoredToken()) {
    throw new ApiError(401, MISSING_TOKEN, 'Authentication token not found');
  }
  const { method = 'GET', body, fallbackName, ...rest } = options;
  const response = await send(method, path, body, { ...rest, headers: { Accept: '*/*', ...rest.headers } });
  const blob = await response.blob();
  return {
    blob,
    fileName: fileNameFromDisposition(response.headers.get('Content-Disposition'), fallbackName),
    contentType: response.headers.get('Content-Type') ?? blob.type,
  };
}

/** The typed API client: every failure becomes an ApiError. */
export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
  delete: <T = void>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
  page,
  file,
};
