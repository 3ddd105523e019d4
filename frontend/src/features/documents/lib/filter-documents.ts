import { COI_TYPE_LABELS, COI_TYPES, DOCUMENT_TYPE_LABELS, DOCUMENT_TYPES } from '@/lib/domain/documents';
import type { DocumentStatus } from '@/types/api';

export type DocumentStatusFilter = 'all' | DocumentStatus;

/** Suggestions of the Documents search: the document type codes, then the COI insurance types. */
export const DOCUMENT_SEARCH_SUGGESTIONS = [
  'coi',
  'w9',
  'sales_tax',
  'vendor_agreement',
  'other',
  ...Object.values(COI_TYPE_LABELS),
];

export const DOCUMENT_STATUS_OPTIONS: { value: DocumentStatusFilter; label: string }[] = [
  { value: 'all', label: 'All Statuses' },
  { value: 'current', label: 'Current' },
  { value: 'expiring_soon', label: 'Expiring Soon' },
  { value: 'expired', label: 'Expired' },
  { value: 'missing', label: 'Missing' },
];

/**
 * The search as the server takes it (it matches file names, notes, and document and COI type
 * codes): a label the screens show, as picked from the suggestions ('General Liability', 'W9
 * Form'), becomes its code; anything else goes as typed.
 */
export function documentSearchQuery(search: string): string | undefined {
  const text = search.trim();
  if (!text) return undefined;
  const needle = text.toLowerCase();
  const coiType = COI_TYPES.find((t) => COI_TYPE_LABELS[t].toLowerCase() === needle);
  if (coiType) return coiType;
  return DOCUMENT_TYPES.find((t) => DOCUMENT_TYPE_LABELS[t].toLowerCase() === needle) ?? text;
}
