import type { loaders } from './prefetch';

/**
 * The app's pages: each address and the module (under src/) that draws it. The router builds its
 * routes from these tables (./router). They import nothing, so that the entry (src/main.tsx) can
 * read them too and start loading a page's code at the same time as the app's (./preload-page).
 */

/**
 * A page module: a file under src/ that exports the page as its default. A page of one feature is
 * in its routes/; a page that puts several features together is in app/routes/app/.
 */
export type PageKey = `features/${string}/routes/${string}.tsx` | `app/routes/app/${string}.tsx`;

/** Pages anyone can open. */
export const publicPages: ReadonlyArray<readonly [path: string, module: PageKey]> = [
  ['/', 'features/landing/routes/landing.tsx'],
  ['/login', 'features/auth/routes/login.tsx'],
  ['/register', 'features/auth/routes/register.tsx'],
  ['/forgot-password', 'features/auth/routes/forgot-password.tsx'],
  ['/reset-password', 'features/auth/routes/reset-password.tsx'],
  ['/accept-invitation', 'features/auth/routes/accept-invitation.tsx'],
  ['/vendor-upload', 'features/portal/routes/vendor-upload.tsx'],
  ['/document-viewer', 'features/documents/routes/document-viewer.tsx'],
  ['/blog', 'features/blog/routes/blog-list.tsx'],
  ['/blog/:slug', 'features/blog/routes/blog-post.tsx'],
  ['/view-blog-post/:slug', 'features/blog/routes/blog-post.tsx'],
  ['/upgrade-success', 'features/account/routes/upgrade-success.tsx'],
];

/** A document opened on its own page: signed in, without the signed-in layout. */
export const viewDocumentPage = ['/view-document/:id', 'features/documents/routes/view-document.tsx'] as const;

/** The auth guard and the signed-in layout around every signed-in page. */
export const APP_ROOT = 'app/routes/app-root.tsx';

/** The route loaders, which start a signed-in page's reads. */
export const ROUTE_LOADERS = 'app/prefetch.ts';

/** Signed-in pages, with the loader (./prefetch) that starts their reads. */
export const signedInPages: ReadonlyArray<readonly [path: string, module: PageKey, prefetch?: keyof typeof loaders]> = [
  ['/dashboard', 'app/routes/app/dashboard.tsx', 'dashboard'],
  ['/vendors', 'features/vendors/routes/vendors.tsx', 'vendors'],
  ['/vendors/new', 'features/vendors/routes/vendor-new.tsx', 'vendors'],
  ['/vendors/:id', 'app/routes/app/vendor-detail.tsx', 'vendor'],
  ['/vendors/:id/documents', 'app/routes/app/vendor-detail.tsx', 'vendor'],
  ['/vendors/:id/edit', 'features/vendors/routes/vendor-edit.tsx', 'vendor'],
  ['/documents', 'features/documents/routes/documents.tsx', 'documents'],
  ['/activity', 'features/activity/routes/activity.tsx', 'activity'],
  ['/reminders', 'features/reminders/routes/reminders.tsx', 'reminders'],
  ['/reports', 'features/reports/routes/reports.tsx', 'reports'],
  ['/billing', 'features/account/routes/billing.tsx', 'billing'],
  ['/account/team', 'features/team/routes/team.tsx'],
  ['/account/requirements', 'features/requirements/routes/requirements.tsx'],
  ['/account/integrations', 'features/integrations/routes/integrations.tsx'],
  ['/admin', 'features/admin/routes/admin.tsx', 'admin'],
  ['/admin/blog/new', 'features/admin/routes/blog-editor.tsx'],
  ['/admin/blog/edit/:slug', 'features/admin/routes/blog-editor.tsx'],
  ['/payment-success', 'features/account/routes/payment-success.tsx'],
];

/** Signed-in pages whose route loader waits for the plan before the page first shows (./prefetch, planFirst). */
const PLAN_FIRST: ReadonlyArray<keyof typeof loaders> = ['dashboard', 'vendors'];

/**
 * Whether `pathname` is the page `pattern`, as React Router matches it: `:name` stands for one
 * segment, letters in any case, with or without a trailing slash.
 */
export function matchesPath(pattern: string, pathname: string): boolean {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  return (
    want.length === have.length &&
    want.every((segment, i) => segment.startsWith(':') || segment.toLowerCase() === have[i].toLowerCase())
  );
}

/**
 * The modules the router loads for the page at `pathname`: the page, and for a signed-in page
 * the signed-in layout and, when it has one, the route loader. None for an unknown address.
 */
export function pageModules(pathname: string): string[] {
  const page = publicPages.find(([path]) => matchesPath(path, pathname));
  if (page) return [page[1]];
  if (matchesPath(viewDocumentPage[0], pathname)) return [viewDocumentPage[1]];
  const signedIn = signedInPages.find(([path]) => matchesPath(path, pathname));
  if (signedIn) return [APP_ROOT, signedIn[1], ...(signedIn[2] ? [ROUTE_LOADERS] : [])];
  return [];
}

/**
 * What the app will wait for from the server before it shows the page at `pathname` to someone
 * with a stored session: the session check (GET /api/auth/me, on every page), and the plan for a
 * page whose loader waits for it. The entry asks for them before the app has loaded (lib/early-reads).
 */
export function earlyReads(pathname: string): string[] {
  const signedIn = signedInPages.find(([path]) => matchesPath(path, pathname));
  return ['/api/auth/me', ...(signedIn?.[2] && PLAN_FIRST.includes(signedIn[2]) ? ['/api/payment-status'] : [])];
}
