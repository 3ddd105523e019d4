import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { validateSession } from '@/features/auth/hooks/use-validate-session';
import { queryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { renderRoot } from './root';
import { createAppRouter } from './router';

export function App({ router }: { router: DataRouter }) {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}

function firstPageLoaded(router: DataRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Starts the app at the current location and shows it once its first page's code has loaded, so
 * that what is on screen until then (the standalone landing page) stays. A stored session is
 * checked with the server meanwhile.
 */
export async function startApp(): Promise<void> {
  void validateSession(queryClient);
  const router = createAppRouter();
  await firstPageLoaded(router);
  renderRoot(<App router={router} />);
}
