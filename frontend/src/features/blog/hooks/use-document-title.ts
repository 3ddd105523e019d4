import { useEffect } from 'react';
import { APP_NAME } from '@/config';

/**
 * Keeps the tab title in step during in-app navigation; the server already sent the first page's
 * title and meta tags for crawlers.
 */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = `${title} | ${APP_NAME}`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
