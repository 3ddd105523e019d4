import { startTransition, StrictMode, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

let root: Root | null = null;

/**
 * Shows `page` in #root: the standalone landing page first, or the app, which takes over from it.
 * Rendered as a transition, which React does in slices of a few milliseconds instead of one long
 * task: the browser can paint and answer input meanwhile, and what was on screen (the page the
 * server sent, the landing page) stays until the new page is ready.
 */
export function renderRoot(page: ReactNode) {
  if (!root) {
    const container = document.getElementById('root');
    if (!container) throw new Error('Missing #root element');
    root = createRoot(container);
  }
  const current = root;
  startTransition(() => current.render(<StrictMode>{page}</StrictMode>));
}
