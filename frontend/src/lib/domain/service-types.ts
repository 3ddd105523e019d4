import { formatServiceType } from '@/lib/format';
import type { ServiceType } from '@/types/api';

/** One list, offered by every form and accepted by the server (docs/decisions.md, 8). */
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
] as const satisfies readonly ServiceType[];

export type { ServiceType };

export const DEFAULT_SERVICE_TYPE: ServiceType = 'general-contractor';

export const SERVICE_TYPE_OPTIONS = SERVICE_TYPES.map((value) => ({ value, label: formatServiceType(value) }));
