import { render, screen, waitForElementToBeRemoved } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, type ReactElement } from 'react';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { createRoutes, trackVisits } from '@/app/router';
import { sessionStore } from '@/lib/session';
import { createAccount, issueToken, publicUser, type MockAccount } from './mocks/db';
import { server } from './mocks/server';

/** Renders the whole app (real routes and providers) at a URL; `strict` mounts it in React's StrictMode. */
export function renderApp(url = '/', { strict = false }: { strict?: boolean } = {}) {
  const router = trackVisits(createMemoryRouter(createRoutes(), { initialEntries: [url] }));
  const user = userEvent.setup();
  const app = (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
  const result = render(strict ? <StrictMode>{app}</StrictMode> : app);
  return { ...result, router, user };
}

/**
 * Replaces window.location with a copy whose assign() is a spy (jsdom cannot leave the page).
 * Call restore() when done.
 */
export function stubLocationAssign() {
  const original = window.location;
  const assign = vi.fn();
  Object.defineProperty(window, 'location', { configurable: true, value: { ...original, origin: original.origin, assign } });
  return { assign, restore: () => Object.defineProperty(window, 'location', { configurable: true, value: original }) };
}

/** Renders a router of the test's own inside the app providers. */
export function renderRouter(router: Parameters<typeof RouterProvider>[0]['router']) {
  return render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

/** Renders one element inside the app providers and a memory router. */
export function renderWithProviders(element: ReactElement, url = '/') {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [url] });
  const user = userEvent.setup();
  const result = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, user };
}

/** Stores a valid session for a fresh account, as if the user had logged in before. */
export function signInAs(overrides: Partial<MockAccount> = {}) {
  const account = createAccount(overrides);
  const token = issueToken(account);
  sessionStore.signIn(token, publicUser(account));
  return account;
}

export async function waitForSpinnerToGo() {
  const spinner = screen.queryByTestId('page-spinner');
  if (spinner) await waitForElementToBeRemoved(spinner);
}

/**
 * The query parameters of every GET of `path` ('/api/vendors') from now on, in order, as plain
 * objects. The listener goes after the test (setup.ts).
 */
export function recordGets(path: string): Record<string, string>[] {
  const seen: Record<string, string>[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === path) seen.push(Object.fromEntries(url.searchParams));
  });
  return seen;
}

export * from '@testing-library/react';
