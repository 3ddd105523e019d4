import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { CoiType, DocumentType, VendorDocument } from '@/types/api';

export type UpdateDocumentInput = {
  id: string;
  data: { documentType?: DocumentType; coiType?: CoiType | null; expirationDate?: string | null; notes?: string };
};

export function updateDocument({ id, data }: UpdateDocumentInput): Promise<VendorDocument> {
  return api.put<VendorDocument>(`/api/documents/${encodeURIComponent(id)}`, data);
}

export function useUpdateDocument() {
  const client = useQueryClient();
  return useMutation<VendorDocument, ApiError, UpdateDocumentInput>({
    mutationFn: updateDocument,
    onSuccess: () => invalidateCompliance(client),
  });
}
