import { useEffect, useState } from 'react';
import { PLAN_SEATS } from '@/config';
import { api } from '@/lib/api-client';
import type { Plan } from '@/types/api';

/** `GET /api/config`: what the public pages show that the server's configuration decides. */
export type PublicConfig = {
  supportEmail: string;
  /** Each plan's limits and monthly price, as the server is configured. */
  plans?: Partial<Record<Plan, PlanConfig>>;
  /** Whether certificates are read with AI on this server (an AI key is configured). */
  aiReading?: boolean;
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

export type PlanSeats = Record<Plan, number>;

let known: PlanSeats | null = null;

/**
 * How many people each plan has room for, from GET /api/config (the built-in numbers until it
 * answers): for the pricing cards and the upgrade prompts. Read with the API client alone, like the
 * support email, so the landing page does not load the query client for it.
 */
export function usePlanSeats(): PlanSeats {
  const [seats, setSeats] = useState<PlanSeats>(known ?? PLAN_SEATS);
  useEffect(() => {
    let mounted = true;
    publicConfigOnce().then(
      (config) => {
        known = {
          free: config.plans?.free?.seats ?? PLAN_SEATS.free,
          professional: config.plans?.professional?.seats ?? PLAN_SEATS.professional,
        };
        if (mounted) setSeats(known);
      },
      () => undefined,
    );
    return () => {
      mounted = false;
    };
  }, []);
  return seats;
}

/** 'Up to 10 people'. */
export function seatsText(seats: number): string {
  return seats === 1 ? 'Just you' : `Up to ${seats} people`;
}
