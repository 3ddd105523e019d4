import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  APP_ROOT,
  earlyReads,
  matchesPath,
  pageModules,
  publicPages,
  ROUTE_LOADERS,
  signedInPages,
  viewDocumentPage,
} from './pages';
import { createRoutes } from './router';

const pageFiles = Object.keys(
  import.meta.glob(['./features/*/routes/*.tsx', './app/routes/app/*.tsx', '!**/*.test.tsx'], { base: '../' }),
);

describe('the page tables the router and the entry share', () => {
  it('match addresses as React Router does', () => {
    expect(matchesPath('/vendors/:id/edit', '/vendors/AbC123xy/edit')).toBe(true);
    expect(matchesPath('/vendors/:id/edit', '/vendors/AbC123xy/edit/')).toBe(true);
    expect(matchesPath('/login', '/LOGIN')).toBe(true);
    expect(matchesPath('/vendors/:id', '/vendors')).toBe(false);
    expect(matchesPath('/vendors/:id', '/vendors/a/b')).toBe(false);
    expect(matchesPath('/', '/')).toBe(true);
  });

  it("name each page's modules, the signed-in layout and route loader with a signed-in page", () => {
    expect(pageModules('/login')).toEqual(['features/auth/routes/login.tsx']);
    expect(pageModules('/blog/some-post')).toEqual(['features/blog/routes/blog-post.tsx']);
    expect(pageModules('/dashboard')).toEqual([APP_ROOT, 'app/routes/app/dashboard.tsx', ROUTE_LOADERS]);
    // A fixed segment wins over a parameter, as in the router.
    expect(pageModules('/vendors/new')).toEqual([APP_ROOT, 'features/vendors/routes/vendor-new.tsx', ROUTE_LOADERS]);
    expect(pageModules('/admin/blog/new')).toEqual([APP_ROOT, 'features/admin/routes/blog-editor.tsx']);
    expect(pageModules('/view-document/42')).toEqual(['features/documents/routes/view-document.tsx']);
    expect(pageModules('/no-such-page')).toEqual([]);
  });

  it('name modules that exist', () => {
    const modules = [...publicPages, ...signedInPages, viewDocumentPage].map(([, module]) => `./${module}`);
    for (const module of modules) expect(pageFiles).toContain(module);
  });

  it("hold the router's addresses, and only those", () => {
    const paths = (routes: RouteObject[]): string[] =>
      routes.flatMap((route) => [...(route.path ? [route.path] : []), ...paths(route.children ?? [])]);
    const tables = [...publicPages, viewDocumentPage, ...signedInPages].map(([path]) => path);
    expect(paths(createRoutes()).filter((path) => path !== '*')).toEqual(tables);
  });

  it('name the reads a page waits for: the session check, and the plan where the loader waits for it', () => {
    expect(earlyReads('/dashboard')).toEqual(['/api/auth/me', '/api/payment-status']);
    expect(earlyReads('/vendors/new')).toEqual(['/api/auth/me', '/api/payment-status']);
    expect(earlyReads('/documents')).toEqual(['/api/auth/me']);
    expect(earlyReads('/blog')).toEqual(['/api/auth/me']);
  });
});
