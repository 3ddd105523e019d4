import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';
import { saveFile } from '@/lib/save-file';

/** Fetches the file with the bearer token and hands it to the browser as a download. */
export async function downloadDocument(id: string): Promise<string> {
  const { blob, fileName } = await api.file(`/api/documents/${encodeURIComponent(id)}/download`);
  saveFile(blob, fileName);
  return fileName;
}

export function useDownloadDocument() {
  return useMutation<string, ApiError, string>({ mutationFn: downloadDocument });
}
