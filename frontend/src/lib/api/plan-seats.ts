import { useEffect, useState } from 'react';
import { PLAN_SEATS } from '@/config';
import type { Plan } from '@/types/api';
import { publicConfigOnce } from './public-config';

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
