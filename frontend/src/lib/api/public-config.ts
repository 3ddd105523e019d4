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
  /** How many people the plan has room for: members plus pending invitations. */
  seats?: number | null;
};

export function getPublicConfig(): Promise<PublicConfig> {
  return api.get<PublicConfig>('/api/config');
}

let once: Promise<PublicConfig> | null = null;

/** The configuration, asked once per page load (asked again after a failure), for the hooks that read it without the query client. */
export function publicConfigOnce(): Promise<PublicConfig> {
  once ??= getPublicConfig().catch((error: unknown) => {
    once = null;
    throw error;
  });
  return once;
}
