import { useEffect, useState } from 'react';
import { SUPPORT_EMAIL } from '@/config';
import { publicConfigOnce } from './public-config';

let supportEmail: Promise<string> | null = null;
let knownSupportEmail: string | null = null;

/**
 * The configured support contact; the built-in address until the server has answered. Asked once
 * per page load with the API client alone, not through the query client: the landing page shows
 * it to first-time visitors, whose browser has not loaded the app's code (src/main.tsx).
 */
export function useSupportEmail(): string {
  const [email, setEmail] = useState(knownSupportEmail ?? SUPPORT_EMAIL);
  useEffect(() => {
    let mounted = true;
    supportEmail ??= publicConfigOnce().then(
      (config) => {
        knownSupportEmail = config.supportEmail ?? SUPPORT_EMAIL;
        return knownSupportEmail;
      },
      () => {
        supportEmail = null; // asked again by the next page that shows it
        return SUPPORT_EMAIL;
      },
    );
    void supportEmail.then((value) => mounted && setEmail(value));
    return () => {
      mounted = false;
    };
  }, []);
  return email;
}
