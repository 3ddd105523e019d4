import { buildUrl } from './api-client';
import { ApiError, networkError, toApiError } from './api-error';

export type UploadOptions = {
  /** Extra request headers (the bearer token for signed-in uploads). */
  headers?: Record<string, string>;
  /** Receives 0-100 while the request body is sent. */
  onProgress?: (percent: number) => void;
};

/**
 * POSTs a multipart form with XMLHttpRequest rather than fetch: only XHR reports upload
 * progress. Resolves with the parsed JSON body; every failure becomes an ApiError.
 */
export function postMultipart<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const { headers = {}, onProgress } = options;
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(path));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.((event.loaded / event.total) * 100);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(100);
        try {
          resolve(JSON.parse(xhr.responseText || 'null') as T);
        } catch {
          reject(new ApiError(xhr.status, 'invalid_response', `${xhr.status}: ${xhr.statusText || 'Invalid response'}`));
        }
        return;
      }
      const responseHeaders = new Headers();
      const retryAfter = xhr.getResponseHeader('Retry-After');
      if (retryAfter) responseHeaders.set('Retry-After', retryAfter);
      const response = new Response(xhr.responseText, {
        status: xhr.status,
        statusText: xhr.statusText,
        headers: responseHeaders,
      });
      void toApiError(response).then(reject, reject);
    };
    xhr.onerror = () => reject(networkError(new Error('Upload failed')));
    xhr.onabort = () => reject(networkError(new Error('Upload cancelled')));
    xhr.send(form);
  });
}
