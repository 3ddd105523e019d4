import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authHeaders } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import { postMultipart } from '@/lib/upload';
import type { VendorImportDefaults, VendorImportField, VendorImportResult } from '@/types/api';

/** The person's choice for a column, by its header: a field, or null to ignore it. */
export type ImportMapping = Record<string, VendorImportField | null>;

export type ImportVendorsInput = {
  /** The file as saved: its bytes go as they are, the server finds the encoding and delimiter. */
  file: File;
  commit: boolean;
  /** Only the columns the person changed; the others keep the server's guess. */
  mapping?: ImportMapping;
  defaults?: VendorImportDefaults;
  /** Receives 0-100 while this call's file is sent. */
  onProgress?: (percent: number) => void;
};

/** The multipart form of POST /api/vendors/import: `file`, `commit`, and `mapping`, `defaults` as JSON. */
export function importForm({ file, commit, mapping, defaults }: ImportVendorsInput): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('commit', commit ? 'true' : 'false');
  if (mapping && Object.keys(mapping).length > 0) form.append('mapping', JSON.stringify(mapping));
  const chosen = Object.fromEntries(Object.entries(defaults ?? {}).filter(([, value]) => value));
  if (Object.keys(chosen).length > 0) form.append('defaults', JSON.stringify(chosen));
  return form;
}

/**
 * POST /api/vendors/import: with `commit: false` a dry run that says how the file was read and
 * what each line would become; with `commit: true` the rows marked `create` are created (within
 * the plan's vendor limit).
 */
export function importVendors(input: ImportVendorsInput): Promise<VendorImportResult> {
  return postMultipart<VendorImportResult>('/api/vendors/import', importForm(input), {
    headers: authHeaders(),
    onProgress: input.onProgress,
  });
}

export function useImportVendors() {
  const client = useQueryClient();
  return useMutation<VendorImportResult, ApiError, ImportVendorsInput>({
    mutationFn: importVendors,
    onSuccess: (result, input) => (input.commit && result.created > 0 ? invalidateCompliance(client) : undefined),
  });
}
