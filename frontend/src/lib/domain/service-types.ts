import { formatServiceType } from '@/lib/format';

/** DECISIONS.md: the union of SPEC.md's two readings; every form offers the full list. */
export const SERVICE_TYPES = [
  'general-contractor',
  'plumbing',
  'electrical',
  'hvac',
  'cleaning',
  'landscaping',
  'security',
  'pest-control',
  'technology',
  'consulting',
  'other',
] as const;

export type ServiceType = (typeof SERVICE_TYPES)[number];

export const DEFAULT_SERVICE_TYPE: ServiceType = 'general-contractor';

export const SERVICE_TYPE_OPTIONS = SERVICE_TYPES.map((value) => ({ value, label: formatServiceType(value) }));
