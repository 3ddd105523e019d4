import { earlyReads } from './app/pages';
import { preloadPage } from './app/preload-page';
import { readEarly } from './lib/early-reads';
import { getStoredToken } from './lib/storage';
import './index.css';

/*
 * The entry is only this: it decides what the address needs and asks for all of it at once (the
 * app, with the files of its page beside it; React is preloaded by index.html).
 *
 * A first-time visitor's landing page is React and the page alone, without the router, the query
 * client or any signed-in screen (under 100 KB of JavaScript: docs/benchmarks/frontend.md). Every other page, and
 * the landing page of someone with a stored session (which the app checks with the server), runs
 * the app; its page's code loads beside the app's instead of after it, and with a stored session
 * the reads the page waits for start at once too.
 */
const startApp = () => import('./app').then((app) => app.startApp());

const token = getStoredToken();
if (window.location.pathname === '/' && !token) {
  void import('./app/standalone-landing').then(({ startLanding }) => startLanding(startApp));
} else {
  // The reads the page will wait for go out now, not once the app has loaded and run.
  if (token) readEarly(earlyReads(window.location.pathname), token);
  preloadPage(window.location.pathname);
  void startApp();
}
