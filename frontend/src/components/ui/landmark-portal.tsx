import { Portal } from '@headlessui/react';
import { useCallback, useMemo, useState, type ReactNode } from 'react';

/** Elements that are landmarks (a form or section only with a name). */
const LANDMARKS = [
  'main',
  'nav',
  'aside',
  'header',
  'footer',
  'form[aria-label]',
  'form[aria-labelledby]',
  'section[aria-label]',
  'section[aria-labelledby]',
  '[role="main"]',
  '[role="navigation"]',
  '[role="complementary"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="region"]',
  '[role="search"]',
].join(', ');

/**
 * The landmark around a trigger, through a callback ref: Headless UI puts floating panels (menu
 * items, listbox options) at the end of <body>, outside every landmark, where screen reader users
 * navigating by landmarks miss them (axe's `region`). `LandmarkPortal` puts them in this one.
 */
export function useNearestLandmark() {
  const [landmark, setLandmark] = useState<HTMLElement | null>(null);
  const ref = useCallback((trigger: HTMLElement | null) => {
    setLandmark(trigger?.closest<HTMLElement>(LANDMARKS) ?? null);
  }, []);
  return [landmark, ref] as const;
}

/**
 * Portals of the children (a floating panel) go to the end of `landmark`. Without one (a trigger
 * inside a dialog: the dialog's own group keeps them in the dialog) nothing changes.
 */
export function LandmarkPortal({ landmark, children }: { landmark: HTMLElement | null; children: ReactNode }) {
  const target = useMemo(() => ({ current: landmark }), [landmark]);
  if (!landmark) return <>{children}</>;
  return <Portal.Group target={target}>{children}</Portal.Group>;
}
