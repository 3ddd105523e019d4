import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authHeaders } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import { postMultipart } from '@/lib/upload';
import type { CoiType, DocumentType, VendorDocument } from '@/types/api';

export type UploadDocumentInput = {
  vendorId: string;
  file: File;
  documentType: DocumentType;
  coiType?: CoiType;
  /** YYYY-MM-DD */
  expirationDate?: string;
  /** The user's notes; the server puts 'COI Type: ...' in front for a COI. */
  notes?: string;
};

/** Uploads one document for a vendor; `onProgress` receives 0-100 while the file is sent. */
export function uploadDocument(input: UploadDocumentInput, onProgress?: (percent: number) => void): Promise<VendorDocument> {
  const form = new FormData();
  form.append('documentType', input.documentType);
  if (input.documentType === 'coi' && input.coiType) form.append('coiType', input.coiType);
  if (input.expirationDate) form.append('expirationDate', input.expirationDate);
  if (input.notes?.trim()) form.append('notes', input.notes.trim());
  form.append('file', input.file, input.file.name);
  return postMultipart<VendorDocument>(`/api/vendors/${encodeURIComponent(input.vendorId)}/documents`, form, {
    headers: authHeaders(),
    onProgress,
  });
}

export function useUploadDocument(onProgress?: (percent: number) => void) {
  const client = useQueryClient();
  return useMutation<VendorDocument, ApiError, UploadDocumentInput>({
    mutationFn: (input) => uploadDocument(input, onProgress),
    onSuccess: () => invalidateCompliance(client),
  });
}
