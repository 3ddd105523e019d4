import { preloadPage } from './app/preload-page';
import { getStoredToken } from './lib/storage';
import './index.css';

/*
 * The entry is only this: it decides what the address needs and asks for all of it at once (the
 * app, with the files of its page beside it; React is preloaded by index.html).
 *
 * A first-time visitor's landing page is React and the page alone, without the router, the query
 * client or any signed-in screen (issue 16: under 100 KB of JavaScript). Every other page, and
 * the landing page of someone with a stored session (which the app checks with the server), runs
 * the app; its page's code loads beside the app's instead of after it.
 */
const startApp = () => import('./app').then((app) => app.startApp());

if (window.location.pathname === '/' && !getStoredToken()) {
  void import('./app/standalone-landing').then(({ startLanding }) => startLanding(startApp));
} else {
  preloadPage(window.location.pathname);
  void startApp();
}
