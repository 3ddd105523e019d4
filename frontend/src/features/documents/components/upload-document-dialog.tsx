import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Textarea } from '@/components/ui/field';
import { FilePicker } from '@/components/ui/file-picker';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { MAX_UPLOAD_BYTES, UPLOAD_NOTES_MAX_LENGTH } from '@/config';
import {
  ACCEPTED_EXTENSIONS,
  COI_TYPE_LABELS,
  COI_TYPES,
  DOCUMENT_TYPE_LABELS,
  DOCUMENT_TYPES,
  fileExtension,
} from '@/lib/domain/documents';
import type { CoiType, DocumentType } from '@/types/api';
import { useUploadDocument } from '../api/upload-document';

type UploadField = 'file' | 'documentType' | 'coiType' | 'expirationDate' | 'notes';

const typeOptions = DOCUMENT_TYPES.map((value) => ({ value, label: DOCUMENT_TYPE_LABELS[value] }));
const coiOptions = COI_TYPES.map((value) => ({ value, label: COI_TYPE_LABELS[value] }));

export function validateUpload(
  file: File | null,
  documentType: DocumentType | '',
  coiType: CoiType | '',
): Partial<Record<UploadField, string>> {
  const errors: Partial<Record<UploadField, string>> = {};
  if (!file) errors.file = 'Please select a file to upload';
  else if (!ACCEPTED_EXTENSIONS.includes(fileExtension(file.name)))
    errors.file = 'Accepted formats: PDF, DOC, DOCX, PNG, JPG, JPEG, HEIC, TIFF, WebP';
  else if (file.size > MAX_UPLOAD_BYTES) errors.file = 'The file is larger than 10MB';
  if (!documentType) errors.documentType = 'Please select a document type';
  else if (documentType === 'coi' && !coiType) errors.coiType = 'Please select an insurance type for the COI';
  return errors;
}

type UploadDocumentDialogProps = { vendorId: string; open: boolean; onClose: () => void };

export function UploadDocumentDialog({ vendorId, open, onClose }: UploadDocumentDialogProps) {
  const [file, setFile] = useState<File | null>(null);
  const [documentType, setDocumentType] = useState<DocumentType | ''>('');
  const [coiType, setCoiType] = useState<CoiType | ''>('');
  const [expirationDate, setExpirationDate] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Partial<Record<UploadField, string>>>({});
  const [progress, setProgress] = useState(0);
  const [failure, setFailure] = useState<string | null>(null);
  const upload = useUploadDocument(setProgress);

  function reset() {
    setFile(null);
    setDocumentType('');
    setCoiType('');
    setExpirationDate('');
    setNotes('');
    setErrors({});
    setProgress(0);
    setFailure(null);
  }

  function close() {
    if (upload.isPending) return;
    reset();
    onClose();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = validateUpload(file, documentType, coiType);
    setErrors(next);
    if (Object.keys(next).length || !file || !documentType) return;
    setProgress(0);
    setFailure(null);
    upload.mutate(
      { vendorId, file, documentType, coiType: coiType || undefined, expirationDate: expirationDate || undefined, notes },
      {
        onSuccess: () => {
          toast({ title: 'Document uploaded', description: file.name, variant: 'success' });
          reset();
          onClose();
        },
        onError: (error) => {
          setProgress(0);
          const field = error.errors;
          setErrors({
            file: field.file?.[0],
            expirationDate: field.expirationDate?.[0],
            documentType: field.documentType?.[0],
            coiType: field.coiType?.[0],
          });
          const message = error.message || 'Failed to upload document';
          setFailure(message);
          toast({ title: 'Upload failed', description: message, variant: 'error' });
        },
      },
    );
  }

  return (
    <Dialog open={open} onClose={close} title="Upload Document" description="Add a compliance document for this vendor.">
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Upload Document">
        <div className="space-y-1.5">
          <Select
            label="Document Type"
            placeholder="Select a document type"
            value={documentType}
            onChange={setDocumentType}
            options={typeOptions}
            invalid={Boolean(errors.documentType)}
          />
          {errors.documentType ? (
            <p className="text-sm text-red-600" role="alert">
              {errors.documentType}
            </p>
          ) : null}
        </div>
        {documentType === 'coi' ? (
          <div className="space-y-1.5">
            <Select
              label="Insurance Type"
              placeholder="Select an insurance type"
              value={coiType}
              onChange={setCoiType}
              options={coiOptions}
              invalid={Boolean(errors.coiType)}
            />
            {errors.coiType ? (
              <p className="text-sm text-red-600" role="alert">
                {errors.coiType}
              </p>
            ) : null}
          </div>
        ) : null}
        <Field label="Expiration Date" hint="Optional. Reminders are sent before this date." error={errors.expirationDate}>
          <Input
            type="date"
            value={expirationDate}
            onChange={(e) => setExpirationDate(e.target.value)}
            invalid={Boolean(errors.expirationDate)}
          />
        </Field>
        <Field label="Notes">
          <Textarea
            rows={2}
            value={notes}
            maxLength={UPLOAD_NOTES_MAX_LENGTH}
            onChange={(e) => setNotes(e.target.value)}
            placeholder="Optional"
          />
        </Field>
        <FilePicker file={file} onChange={setFile} error={errors.file} disabled={upload.isPending} />
        {upload.isPending ? (
          <div className="space-y-1">
            <ProgressBar value={progress} label="Upload progress" />
            <p className="text-xs text-slate-500">{Math.round(progress)}%</p>
          </div>
        ) : null}
        {failure ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            Upload failed: {failure}
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close} disabled={upload.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={upload.isPending}>
            {upload.isPending ? 'Uploading...' : 'Upload'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
