import { StrictMode, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

let root: Root | null = null;

/** Shows `page` in #root: the standalone landing page first, or the app, which takes over from it. */
export function renderRoot(page: ReactNode) {
  if (!root) {
    const container = document.getElementById('root');
    if (!container) throw new Error('Missing #root element');
    root = createRoot(container);
  }
  root.render(<StrictMode>{page}</StrictMode>);
}
