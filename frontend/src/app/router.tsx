import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, useNavigate, type DataRouter, type LoaderFunction, type RouteObject } from 'react-router';
import { NavigateProvider } from '@/components/ui/plain-link';
import { AuthGuard } from '@/features/auth/components/auth-guard';
import { startVisit } from '@/lib/query-client';
import { publicPages, signedInPages, viewDocumentPage, type PageKey } from './pages';
import type { loaders } from './prefetch';
import { NotFoundRoute } from './routes/not-found';
import { RouteError } from './routes/route-error';

/** A page module: the page as its default export, and the route loader of a public page that has one. */
type PageExports = { default: ComponentType; loader?: LoaderFunction };
type PageModule = () => Promise<PageExports>;

/** Every page module (./pages names them), each loaded when its page is first shown; keys are ./{PageKey}. */
const pageModules = import.meta.glob<PageExports>(['./features/*/routes/*.tsx', './app/routes/app/*.tsx', '!**/*.test.tsx'], {
  base: '../',
});

function page(key: PageKey): PageModule {
  const load = pageModules[`./${key}`];
  if (!load) throw new Error(`No page module src/${key}`);
  return load;
}

const appRoot = () => import('./routes/app-root');
const routeLoaders = () => import('./prefetch');

/** Lazy routes: each page loads the code it uses, with its loader when it exports one. */
const lazy = (load: PageModule) => async () => {
  const { default: Component, loader } = await load();
  return loader ? { Component, loader } : { Component };
};

/**
 * A signed-in page: its component and its loader (./prefetch, which starts the page's reads) load
 * side by side, so the reads start while the page's code is still on its way.
 */
const signedIn = (load: PageModule, prefetch?: keyof typeof loaders) => ({
  Component: async () => (await load()).default,
  ...(prefetch && { loader: async () => (await routeLoaders()).loaders[prefetch] }),
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
      ...publicPages.map(([path, key]) => ({ path, lazy: lazy(page(key)) })),
      {
        path: viewDocumentPage[0],
        lazy: async () => {
          const { default: ViewDocument } = await page(viewDocumentPage[1])();
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
        lazy: lazy(appRoot),
        children: signedInPages.map(([path, key, prefetch]) => ({
          path,
          // A page without a loader (the blog editor, the payment confirmation) loads as a whole.
          lazy: prefetch ? signedIn(page(key), prefetch) : lazy(page(key)),
        })),
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

/**
 * Each navigation opens a page: a new visit for the query cache (lib/query-client, startVisit), so
 * that the page reads again what earlier pages read, once. The visit starts as the navigation does,
 * before the page's loader runs: the loader's reads are the page's own.
 */
export function trackVisits<R extends DataRouter>(router: R): R {
  let current = router.state.location.key;
  startVisit();
  router.subscribe(({ location, navigation }) => {
    const key = navigation.location?.key ?? location.key;
    if (key === current) return;
    current = key;
    startVisit();
  });
  return router;
}

export function createAppRouter() {
  return trackVisits(createBrowserRouter(createRoutes()));
}
