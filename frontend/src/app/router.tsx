import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AuthGuard } from '@/features/auth/components/auth-guard';
import { LandingRoute } from '@/features/landing/routes/landing';
import { loaders } from './prefetch';
import { AppRoot } from './routes/app-root';
import { NotFoundRoute } from './routes/not-found';
import { RouteError } from './routes/route-error';

/** Lazy routes keep the landing page bundle small; each module exports a default component. */
const lazy = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

export const routes: RouteObject[] = [
  {
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
        element: <AppRoot />,
        children: [
          { path: '/dashboard', loader: loaders.dashboard, lazy: lazy(() => import('@/features/dashboard/routes/dashboard')) },
          { path: '/vendors', loader: loaders.vendors, lazy: lazy(() => import('@/features/vendors/routes/vendors')) },
          { path: '/vendors/new', loader: loaders.vendors, lazy: lazy(() => import('@/features/vendors/routes/vendor-new')) },
          { path: '/vendors/:id', loader: loaders.vendor, lazy: lazy(() => import('@/features/vendors/routes/vendor-detail')) },
          {
            path: '/vendors/:id/documents',
            loader: loaders.vendor,
            lazy: lazy(() => import('@/features/vendors/routes/vendor-detail')),
          },
          {
            path: '/vendors/:id/edit',
            loader: loaders.vendor,
            lazy: lazy(() => import('@/features/vendors/routes/vendor-edit')),
          },
          { path: '/documents', loader: loaders.documents, lazy: lazy(() => import('@/features/documents/routes/documents')) },
          { path: '/activity', loader: loaders.activity, lazy: lazy(() => import('@/features/activity/routes/activity')) },
          { path: '/reminders', loader: loaders.reminders, lazy: lazy(() => import('@/features/reminders/routes/reminders')) },
          { path: '/reports', loader: loaders.reports, lazy: lazy(() => import('@/features/reports/routes/reports')) },
          { path: '/billing', loader: loaders.billing, lazy: lazy(() => import('@/features/account/routes/billing')) },
          { path: '/admin', loader: loaders.admin, lazy: lazy(() => import('@/features/admin/routes/admin')) },
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
  return createBrowserRouter(routes);
}
