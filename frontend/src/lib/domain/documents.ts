import type { CoiType, DocumentStatus, DocumentType, SlotKey } from '@/types/api';

/** Document type labels, as the screens show them. */
export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  coi: 'Certificate of Insurance',
  w9: 'W9 Form',
  sales_tax: 'Sales Tax Exemption',
  vendor_agreement: 'Vendor Agreement',
  other: 'Other',
};

export const DOCUMENT_TYPES = Object.keys(DOCUMENT_TYPE_LABELS) as DocumentType[];

export const COI_TYPE_LABELS: Record<CoiType, string> = {
  general_liability: 'General Liability',
  workers_comp: 'Workers Compensation',
  automobile: 'Automobile',
};

export const COI_TYPES = Object.keys(COI_TYPE_LABELS) as CoiType[];

export const STATUS_LABELS: Record<DocumentStatus, string> = {
  current: 'Current',
  expiring_soon: 'Expiring Soon',
  expired: 'Expired',
  missing: 'Missing',
};

export const DOCUMENT_STATUSES: DocumentStatus[] = ['current', 'expiring_soon', 'expired', 'missing'];

/** The seven slots, in order (docs/product.md, "Documents, slots and versions"). */
export const SLOT_LABELS: Record<SlotKey, string> = {
  w9: 'W-9 Form',
  coi_general_liability: 'COI - General',
  coi_workers_comp: 'COI - Workers',
  coi_automobile: 'COI - Auto',
  sales_tax: 'Sales Tax Certificate',
  vendor_agreement: 'Vendor Agreement',
  other: 'Other Documents',
};

export const SLOT_KEYS = Object.keys(SLOT_LABELS) as SlotKey[];

/** By default a vendor is asked for every slot but Other. */
export const DEFAULT_REQUIRED_DOCUMENTS: SlotKey[] = SLOT_KEYS.filter((slot) => slot !== 'other');

/**
 * Accepted upload formats (docs/product.md, "Uploads"): documents, pictures, iPhone photos (HEIC,
 * which a Mac's file picker greys out unless it is listed here), scans (TIFF) and WebP.
 */
export const ACCEPTED_FILE_TYPES = '.pdf,.doc,.docx,.png,.jpg,.jpeg,.heic,.heif,.tif,.tiff,.webp';
export const ACCEPTED_EXTENSIONS = ['pdf', 'doc', 'docx', 'png', 'jpg', 'jpeg', 'heic', 'heif', 'tif', 'tiff', 'webp'];
/** The accepted formats as the forms name them. */
export const ACCEPTED_FORMATS_TEXT = 'PDF, DOC, DOCX, PNG, JPG, JPEG, HEIC, TIFF or WebP';

export function documentTypeLabel(type: string): string {
  return DOCUMENT_TYPE_LABELS[type as DocumentType] ?? type;
}

export function statusLabel(status: string): string {
  return STATUS_LABELS[status as DocumentStatus] ?? status;
}

const COI_PREFIX = /^COI Type:\s*([^\n-]*?)\s*(?:-\s*|\n|$)/i;

/** The insurance type of a COI: from `coiType`, else read from its notes ('COI Type: ...'). */
export function coiTypeLabel(doc: { documentType: string; coiType?: CoiType | null; notes?: string | null }): string | null {
  if (doc.documentType !== 'coi') return null;
  if (doc.coiType) return COI_TYPE_LABELS[doc.coiType];
  const match = doc.notes ? COI_PREFIX.exec(doc.notes) : null;
  if (!match?.[1]) return null;
  const raw = match[1].trim();
  const known = COI_TYPES.find((t) => t === raw.toLowerCase() || COI_TYPE_LABELS[t].toLowerCase() === raw.toLowerCase());
  return known ? COI_TYPE_LABELS[known] : raw;
}

/** A COI's notes without the 'COI Type: ...' prefix: what the user typed. */
export function userNotes(notes: string | null | undefined): string {
  if (!notes) return '';
  return notes.replace(COI_PREFIX, '').trim();
}

/** Lower-case extension of a file name ('' when none). */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}
