import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { NotFoundRoute } from './not-found';

/** Shown when a route fails to load or render. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundRoute />;
  return (
    <main role="alert" className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 text-center">
      <h1 className="text-2xl font-bold text-slate-900">Something went wrong</h1>
      <p className="mt-3 max-w-md text-slate-600">The page could not be shown. Reload the page or go back to the start.</p>
      <ButtonLink to="/" className="mt-6">
        Back to Home
      </ButtonLink>
    </main>
  );
}
