import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { resetToasts } from '@/components/ui/toast';
import { queryClient } from '@/lib/query-client';
import { sessionStore } from '@/lib/session';
import { resetDb } from './mocks/db';
import { server } from './mocks/server';

// jsdom lacks ResizeObserver, which Headless UI's anchored menus and listboxes use.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub;

// CI runs on two cores beside a Rust build: give findBy/waitFor room before calling it a failure.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  resetDb();
  sessionStore.reload();
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  server.events.removeAllListeners();
  queryClient.clear();
  resetToasts();
});

afterAll(() => server.close());
