import { ButtonLink } from '@/components/ui/button';

export function NotFoundRoute() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 text-center">
      <p className="text-sm font-semibold text-blue-600">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">404 Page Not Found</h1>
      <p className="mt-4 text-slate-600">Did you forget to add the page to the router?</p>
      <ButtonLink to="/" className="mt-8">
        Back to Home
      </ButtonLink>
    </main>
  );
}

export default NotFoundRoute;
