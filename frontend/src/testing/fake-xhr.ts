import { vi } from 'vitest';

type Reply = {
  status: number;
  statusText?: string;
  body: unknown;
  headers?: Record<string, string>;
  /** Fail like a dropped connection (onerror) instead of answering. */
  networkError?: boolean;
};

/**
 * A stand-in for XMLHttpRequest in upload tests: MSW's XHR interception stalls on jsdom's
 * FormData with a File in it. Records the request, reports progress, then replies (a reply may
 * be worked out asynchronously, reading the file sent).
 */
export class FakeXhr {
  static requests: FakeXhr[] = [];
  static reply: (xhr: FakeXhr) => Reply | Promise<Reply> = () => ({ status: 201, body: {} });

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  withCredentials = false;
  status = 0;
  statusText = '';
  responseText = '';
  responseHeaders: Record<string, string> = {};
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  getResponseHeader(name: string): string | null {
    const found = Object.entries(this.responseHeaders).find(([key]) => key.toLowerCase() === name.toLowerCase());
    return found ? found[1] : null;
  }

  send(body: FormData) {
    this.body = body;
    FakeXhr.requests.push(this);
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      setTimeout(async () => {
        const reply = await FakeXhr.reply(this);
        if (reply.networkError) {
          this.onerror?.();
          return;
        }
        this.status = reply.status;
        this.statusText = reply.statusText ?? '';
        this.responseText = JSON.stringify(reply.body);
        this.responseHeaders = reply.headers ?? {};
        this.onload?.();
      }, 20);
    }, 20);
  }
}

export function installFakeXhr(reply?: (xhr: FakeXhr) => Reply | Promise<Reply>) {
  FakeXhr.requests = [];
  FakeXhr.reply = reply ?? (() => ({ status: 201, body: {} }));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr;
}
