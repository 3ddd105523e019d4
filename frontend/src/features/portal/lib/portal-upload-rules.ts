import { MAX_UPLOAD_BYTES } from '@/config';
import { ACCEPTED_EXTENSIONS, fileExtension } from '@/lib/domain/documents';
import { formatDate } from '@/lib/format';
import type { Errors } from '@/lib/validation';
import type { RequestedDocument } from '@/types/api';

/** The portal's file input accepts these, in the order the portal lists them. */
export const PORTAL_ACCEPTED_FILE_TYPES = '.pdf,.doc,.docx,.jpg,.jpeg,.png,.heic,.heif,.tif,.tiff,.webp';

export type PortalUploadField = 'file' | 'expirationDate';

/** Today as YYYY-MM-DD in the vendor's time zone: the date input's minimum. */
export function todayIso(now: Date = new Date()): string {
  return formatDate(now, 'yyyy-MM-dd');
}

export function isCoi(item: Pick<RequestedDocument, 'documentType'>): boolean {
  return item.documentType === 'coi';
}

/**
 * Vendor portal upload: a file of an accepted type, at most 10 MB; an expiration date for COI
 * types; a date, when given, not before today.
 */
export function validatePortalUpload(
  item: Pick<RequestedDocument, 'documentType' | 'label'>,
  file: File | null,
  expirationDate: string,
  today: string = todayIso(),
): Errors<PortalUploadField> {
  const errors: Errors<PortalUploadField> = {};
  if (!file) errors.file = 'Please select a document file';
  else if (!ACCEPTED_EXTENSIONS.includes(fileExtension(file.name)))
    errors.file = 'Accepted formats: PDF, DOC, DOCX, JPG, JPEG, PNG, HEIC, TIFF, WebP';
  else if (file.size > MAX_UPLOAD_BYTES) errors.file = 'The file is larger than 10MB';
  if (!expirationDate) {
    if (isCoi(item)) errors.expirationDate = `Expiration date is required for ${item.label}`;
  } else if (expirationDate < today) {
    errors.expirationDate = 'The expiration date cannot be in the past.';
  }
  return errors;
}

/** The completion dialog shows once every requested type counts as uploaded. */
export function allUploaded(items: readonly RequestedDocument[], uploaded: ReadonlySet<string>): boolean {
  return items.length > 0 && items.every((item) => item.uploaded || uploaded.has(item.slot));
}
