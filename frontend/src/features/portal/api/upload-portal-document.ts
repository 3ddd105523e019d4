import { useMutation } from '@tanstack/react-query';
import type { ApiError } from '@/lib/api-error';
import { postMultipart } from '@/lib/upload';
import type { CoiType, DocumentType, PortalUploadResponse } from '@/types/api';

export type PortalUploadInput = {
  companyKey: string;
  file: File;
  documentType: DocumentType;
  coiType?: CoiType | null;
  /** YYYY-MM-DD */
  expirationDate?: string;
  notes?: string;
};

/** A COI's notes are 'COI Type: {subtype}' plus ' - {notes}' when notes exist (docs/product.md, "Documents, slots and versions"). */
export function portalNotes(coiType: CoiType | null | undefined, notes: string | undefined): string {
  const own = notes?.trim() ?? '';
  if (!coiType) return own;
  return own ? `COI Type: ${coiType} - ${own}` : `COI Type: ${coiType}`;
}

/** Sends one document from the vendor; no bearer token: the company key is the credential. */
export function uploadPortalDocument(
  input: PortalUploadInput,
  onProgress?: (percent: number) => void,
): Promise<PortalUploadResponse> {
  const form = new FormData();
  form.append('documentType', input.documentType);
  if (input.coiType) form.append('coiType', input.coiType);
  form.append('companyKey', input.companyKey);
  const notes = portalNotes(input.coiType, input.notes);
  if (notes) form.append('notes', notes);
  if (input.expirationDate) form.append('expirationDate', input.expirationDate);
  form.append('file', input.file, input.file.name);
  return postMultipart<PortalUploadResponse>('/api/vendor-upload-document', form, { onProgress });
}

export function useUploadPortalDocument(onProgress?: (percent: number) => void) {
  return useMutation<PortalUploadResponse, ApiError, PortalUploadInput>({
    mutationFn: (input) => uploadPortalDocument(input, onProgress),
  });
}
