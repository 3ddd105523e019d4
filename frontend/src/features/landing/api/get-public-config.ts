import { queryOptions } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { SUPPORT_EMAIL } from '@/config';
import { api } from '@/lib/api-client';
import type { Plan } from '@/types/api';

/** `GET /api/config`: what the public pages show that the server's configuration decides. */
export type PublicConfig = {
  supportEmail: string;
  /** Each plan's limits and monthly price, as the server is configured. */
  plans?: Partial<Record<Plan, PlanConfig>>;
};

export type PlanConfig = {
  vendorLimit: number;
  /** Null: no limit. */
  documentsPerVendor: number | null;
  /** Monthly price in cents. */
  priceCents?: number | null;
};

export function getPublicConfig(): Promise<PublicConfig> {
  return api.get<PublicConfig>('/api/config');
}

export function getPublicConfigQueryOptions() {
  return queryOptions({ queryKey: ['public-config'], queryFn: getPublicConfig });
}

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
    supportEmail ??= getPublicConfig().then(
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
