import { NavigateProvider } from '@/components/ui/plain-link';
import { LandingRoute } from '@/features/landing/routes/landing';

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
