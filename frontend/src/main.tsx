import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { StandaloneLanding } from './app/standalone-landing';
import { getStoredToken } from './lib/storage';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
const root = createRoot(container);

const render = (page: ReactNode) => root.render(<StrictMode>{page}</StrictMode>);

/*
 * A first-time visitor's landing page is this bundle alone: React and the page, without the
 * router, the query client or any signed-in screen (issue 16: under 100 KB of JavaScript). Every
 * other page, and the landing page of someone with a stored session (which the app checks with
 * the server), runs the app, loaded here on demand.
 */
async function startApp() {
  const app = await import('./app');
  render(await app.startApp());
}

if (window.location.pathname === '/' && !getStoredToken()) {
  let leaving = false;
  const leave = (to: string) => {
    if (leaving) return;
    leaving = true;
    // The app's router starts at the current location.
    window.history.pushState(null, '', to);
    // Should the app's code not load (a lost connection, a release meanwhile): a full page load.
    startApp().catch(() => window.location.assign(to));
  };
  render(<StandaloneLanding onLeave={leave} />);
} else {
  void startApp();
}
