import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { isApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { CoiType, DocumentType } from '@/types/api';
import { uploadDocument } from '../api/upload-document';
import { validateUpload } from '../components/upload-document-dialog';

export type BulkUploadState = 'ready' | 'uploading' | 'done' | 'failed';

/** One file of a bulk upload, with its own details, progress and outcome. */
export type BulkUploadItem = {
  key: string;
  file: File;
  documentType: DocumentType | '';
  coiType: CoiType | '';
  expirationDate: string;
  progress: number;
  state: BulkUploadState;
  /** Why it was not uploaded: a rule of the form, or the server's sentence. */
  error: string | null;
  fieldErrors: Partial<Record<'file' | 'documentType' | 'coiType' | 'expirationDate', string>>;
};

export type BulkUploadDetails = Pick<BulkUploadItem, 'documentType' | 'coiType' | 'expirationDate'>;

export type BulkUploadSummary = { uploaded: number; failed: number };

let counter = 0;

/**
 * Several files for one vendor: each goes through POST /api/vendors/{id}/documents on its own
 * (with its own XHR progress), so one refused file does not stop the others.
 */
export function useBulkUpload(vendorId: string) {
  const client = useQueryClient();
  const [items, setItems] = useState<BulkUploadItem[]>([]);
  const [running, setRunning] = useState(false);

  const patch = useCallback((key: string, change: Partial<BulkUploadItem>) => {
    setItems((prev) => prev.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  const add = useCallback((files: Iterable<File>) => {
    const added = [...files].map<BulkUploadItem>((file) => ({
      key: `bulk-${++counter}`,
      file,
      documentType: '',
      coiType: '',
      expirationDate: '',
      progress: 0,
      state: 'ready',
      error: null,
      fieldErrors: {},
    }));
    setItems((prev) => [...prev, ...added]);
  }, []);

  const update = useCallback(
    (key: string, details: Partial<BulkUploadDetails>) => patch(key, { ...details, fieldErrors: {} }),
    [patch],
  );

  const remove = useCallback((key: string) => setItems((prev) => prev.filter((item) => item.key !== key)), []);

  const reset = useCallback(() => setItems([]), []);

  /** Uploads every file not yet uploaded; resolves with how many went and how many did not. */
  const start = useCallback(async (): Promise<BulkUploadSummary> => {
    const pending = items.filter((item) => item.state === 'ready' || item.state === 'failed');
    const valid: BulkUploadItem[] = [];
    for (const item of pending) {
      const errors = validateUpload(item.file, item.documentType, item.coiType);
      if (Object.keys(errors).length) patch(item.key, { state: 'failed', error: null, fieldErrors: errors });
      else valid.push(item);
    }
    if (!valid.length) return { uploaded: 0, failed: pending.length };
    setRunning(true);
    valid.forEach((item) => patch(item.key, { state: 'uploading', progress: 0, error: null, fieldErrors: {} }));
    const results = await Promise.allSettled(
      valid.map((item) =>
        uploadDocument(
          {
            vendorId,
            file: item.file,
            documentType: item.documentType as DocumentType,
            coiType: item.coiType || undefined,
            expirationDate: item.expirationDate || undefined,
          },
          (progress) => patch(item.key, { progress }),
        ).then(
          () => patch(item.key, { state: 'done', progress: 100 }),
          (error: unknown) => {
            const fields = isApiError(error) ? error.errors : {};
            patch(item.key, {
              state: 'failed',
              progress: 0,
              error: error instanceof Error && error.message ? error.message : 'Failed to upload document',
              fieldErrors: {
                expirationDate: fields.expirationDate?.[0],
                documentType: fields.documentType?.[0],
                coiType: fields.coiType?.[0],
              },
            });
            throw error;
          },
        ),
      ),
    );
    setRunning(false);
    const uploaded = results.filter((r) => r.status === 'fulfilled').length;
    if (uploaded) await invalidateCompliance(client);
    return { uploaded, failed: pending.length - uploaded };
  }, [client, items, patch, vendorId]);

  return { items, running, add, update, remove, reset, start };
}
