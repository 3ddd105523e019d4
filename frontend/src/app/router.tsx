import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, useNavigate, type RouteObject } from 'react-router';
import { NavigateProvider } from '@/components/ui/plain-link';
import { AuthGuard } from '@/features/auth/components/auth-guard';
import { LandingRoute } from '@/features/landing/routes/landing';
import type { loaders } from './prefetch';
import { NotFoundRoute } from './routes/not-found';
import { RouteError } from './routes/route-error';

/** Lazy routes: each page loads the code it uses; each module exports a default component. */
const lazy = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/**
 * A signed-in page: its component and its loader (./prefetch, which starts the page's reads) load
 * side by side, so the reads start while the page's code is still on its way.
 */
const signedIn = (load: () => Promise<{ default: ComponentType }>, prefetch?: keyof typeof loaders) => ({
  Component: async () => (await load()).default,
  ...(prefetch && { loader: async () => (await import('./prefetch')).loaders[prefetch] }),
});

/** PlainLinks (the landing page's, the logo) navigate with the router. */
function RouterNavigation() {
  const navigate = useNavigate();
  return (
    <NavigateProvider value={navigate}>
      <Outlet />
    </NavigateProvider>
  );
}

/**
 * The route table, new for each router: React Router empties the object-form `lazy` of a route
 * once it has loaded, so two routers (the tests make one each) must not share those objects.
 */
export const createRoutes = (): RouteObject[] => [
  {
    element: <RouterNavigation />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <LandingRoute /> },
      { path: '/login', lazy: lazy(() => import('@/features/auth/routes/login')) },
      { path: '/register', lazy: lazy(() => import('@/features/auth/routes/register')) },
      { path: '/forgot-password', lazy: lazy(() => import('@/features/auth/routes/forgot-password')) },
      { path: '/reset-password', lazy: lazy(() => import('@/features/auth/routes/reset-password')) },
      { path: '/vendor-upload', lazy: lazy(() => import('@/features/portal/routes/vendor-upload')) },
      { path: '/document-viewer', lazy: lazy(() => import('@/features/documents/routes/document-viewer')) },
      { path: '/blog', lazy: lazy(() => import('@/features/blog/routes/blog-list')) },
      { path: '/blog/:slug', lazy: lazy(() => import('@/features/blog/routes/blog-post')) },
      { path: '/view-blog-post/:slug', lazy: lazy(() => import('@/features/blog/routes/blog-post')) },
      { path: '/upgrade-success', lazy: lazy(() => import('@/features/account/routes/upgrade-success')) },
      {
        path: '/view-document/:id',
        lazy: async () => {
          const { default: ViewDocument } = await import('@/features/documents/routes/view-document');
          return {
            element: (
              <AuthGuard>
                <ViewDocument />
              </AuthGuard>
            ),
          };
        },
      },
      {
        lazy: lazy(() => import('./routes/app-root')),
        children: [
          { path: '/dashboard', lazy: signedIn(() => import('@/features/dashboard/routes/dashboard'), 'dashboard') },
          { path: '/vendors', lazy: signedIn(() => import('@/features/vendors/routes/vendors'), 'vendors') },
          { path: '/vendors/new', lazy: signedIn(() => import('@/features/vendors/routes/vendor-new'), 'vendors') },
          { path: '/vendors/:id', lazy: signedIn(() => import('@/features/vendors/routes/vendor-detail'), 'vendor') },
          {
            path: '/vendors/:id/documents',
            lazy: signedIn(() => import('@/features/vendors/routes/vendor-detail'), 'vendor'),
          },
          {
            path: '/vendors/:id/edit',
            lazy: signedIn(() => import('@/features/vendors/routes/vendor-edit'), 'vendor'),
          },
          { path: '/documents', lazy: signedIn(() => import('@/features/documents/routes/documents'), 'documents') },
          { path: '/activity', lazy: signedIn(() => import('@/features/activity/routes/activity'), 'activity') },
          { path: '/reminders', lazy: signedIn(() => import('@/features/reminders/routes/reminders'), 'reminders') },
          { path: '/reports', lazy: signedIn(() => import('@/features/reports/routes/reports'), 'reports') },
          { path: '/billing', lazy: signedIn(() => import('@/features/account/routes/billing'), 'billing') },
          { path: '/admin', lazy: signedIn(() => import('@/features/admin/routes/admin'), 'admin') },
          { path: '/admin/blog/new', lazy: lazy(() => import('@/features/admin/routes/blog-editor')) },
          { path: '/admin/blog/edit/:slug', lazy: lazy(() => import('@/features/admin/routes/blog-editor')) },
          { path: '/payment-success', lazy: lazy(() => import('@/features/account/routes/payment-success')) },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(createRoutes());
}
