import { NavigateProvider } from '@/components/ui/plain-link';
import { LandingRoute } from '@/features/landing/routes/landing';
import { preloadPage } from './preload-page';
import { renderRoot } from './root';

/**
 * The landing page without the app around it: what a first-time visitor's browser runs at `/`
 * (src/main.tsx). Its links are PlainLinks; following one to another page hands over to the app
 * through `onLeave`.
 */
export function StandaloneLanding({ onLeave }: { onLeave: (to: string) => void }) {
  return (
    <NavigateProvider
      value={(to, options) => {
        // A link to this page itself (the logo) replaces the location: nothing to load.
        if (!options?.replace) onLeave(to);
      }}
    >
      <LandingRoute />
    </NavigateProvider>
  );
}

/** Shows the standalone landing page; following a link starts the app (`startApp`) at its address. */
export function startLanding(startApp: () => Promise<void>) {
  let leaving = false;
  const leave = (to: string) => {
    if (leaving) return;
    leaving = true;
    // The app's router starts at the current location.
    window.history.pushState(null, '', to);
    preloadPage(new URL(to, window.location.href).pathname);
    // Should the app's code not load (a lost connection, a release meanwhile): a full page load.
    startApp().catch(() => window.location.assign(to));
  };
  renderRoot(<StandaloneLanding onLeave={leave} />);
}
