import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiError } from '@/lib/api-error';

/** Fetches the file with the bearer token and hands it to the browser as a download. */
export async function downloadDocument(id: string): Promise<string> {
  const { blob, fileName } = await api.file(`/api/documents/${encodeURIComponent(id)}/download`);
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start reading the blob before it goes.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return fileName;
}

export function useDownloadDocument() {
  return useMutation<string, ApiError, string>({ mutationFn: downloadDocument });
}
