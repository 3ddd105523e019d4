import pageFiles from 'virtual:page-files';
import { pageModules } from './pages';

/**
 * Starts downloading the code of the page at `pathname` (./pages), so that it arrives with the
 * app's instead of after it: the router, once the app runs, finds it loaded. The files of each
 * page module come from the build (vite.config.ts, pageFiles); without a build (the dev server,
 * the tests) there are none and the router loads the page itself.
 */
export function preloadPage(pathname: string) {
  if (!pageFiles) return;
  for (const module of pageModules(pathname)) {
    for (const index of pageFiles.modules[module] ?? []) preload(pageFiles.files[index]);
  }
}

/** As Vite's own preload helper does for the files of a lazy module. */
function preload(href: string) {
  if (document.head.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.crossOrigin = '';
  link.href = href;
  document.head.appendChild(link);
}
