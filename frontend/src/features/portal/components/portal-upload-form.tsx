import { CheckCircleIcon } from '@heroicons/react/20/solid';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input, Textarea } from '@/components/ui/field';
import { FilePicker } from '@/components/ui/file-picker';
import { ProgressBar } from '@/components/ui/progress-bar';
import { toast } from '@/components/ui/toast';
import { UPLOAD_NOTES_MAX_LENGTH } from '@/config';
import { isApiError, NETWORK_ERROR, serverMessage } from '@/lib/api-error';
import type { Errors } from '@/lib/validation';
import type { PortalUploadResponse, RequestedDocument } from '@/types/api';
import { useUploadPortalDocument } from '../api/upload-portal-document';
import {
  isCoi,
  PORTAL_ACCEPTED_FILE_TYPES,
  todayIso,
  validatePortalUpload,
  type PortalUploadField,
} from '../lib/portal-upload-rules';

/**
 * A failed portal upload: 'Upload Failed' with the server's sentence or 'Failed to upload {label}';
 * a network or unexpected error says so.
 */
function showUploadError(error: unknown, label: string) {
  if (isApiError(error) && error.code !== NETWORK_ERROR && error.status > 0) {
    toast({
      title: 'Upload Failed',
      description: serverMessage(error) ?? `Failed to upload ${label}`,
      variant: 'error',
    });
    return;
  }
  toast({ title: 'Upload Failed', description: `An unexpected error occurred while uploading ${label}`, variant: 'error' });
}

type PortalUploadFormProps = {
  companyKey: string;
  item: RequestedDocument;
  onUploaded: (item: RequestedDocument, response: PortalUploadResponse) => void;
};

/** One requested document type: file, expiration date, notes, Upload and its progress. */
export function PortalUploadForm({ companyKey, item, onUploaded }: PortalUploadFormProps) {
  const [file, setFile] = useState<File | null>(null);
  const [expirationDate, setExpirationDate] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Errors<PortalUploadField>>({});
  const [progress, setProgress] = useState(0);
  const [lastFile, setLastFile] = useState<string | null>(null);
  const upload = useUploadPortalDocument(setProgress);
  const coi = isCoi(item);
  const today = todayIso();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = validatePortalUpload(item, file, expirationDate, today);
    setErrors(next);
    if (next.file || next.expirationDate || !file) return;
    setProgress(0);
    upload.mutate(
      {
        companyKey,
        file,
        documentType: item.documentType,
        coiType: item.coiType,
        expirationDate: expirationDate || undefined,
        notes,
      },
      {
        onSuccess: (response) => {
          setLastFile(response.document?.fileName ?? file.name);
          setFile(null);
          setExpirationDate('');
          setNotes('');
          onUploaded(item, response);
        },
        onError: (error) => {
          setProgress(0);
          setErrors({ file: error.fieldError?.('file'), expirationDate: error.fieldError?.('expirationDate') });
          showUploadError(error, item.label);
        },
      },
    );
  }

  const pending = upload.isPending;
  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Upload ${item.label}`} className="space-y-4">
      {lastFile ? (
        <p className="flex items-start gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          <CheckCircleIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
          <span className="min-w-0 break-words">{lastFile} was received. You can send a newer version any time.</span>
        </p>
      ) : null}
      <FilePicker
        label="Document File"
        file={file}
        onChange={(next) => {
          setFile(next);
          setErrors((e) => ({ ...e, file: undefined }));
        }}
        error={errors.file}
        disabled={pending}
        accept={PORTAL_ACCEPTED_FILE_TYPES}
        hint="PDF, DOC, DOCX, JPG, JPEG, PNG, HEIC, TIFF or WebP, up to 10MB"
      />
      <Field
        label={coi ? 'Expiration Date*' : 'Expiration Date'}
        hint={coi ? 'The date this certificate expires.' : 'Optional.'}
        error={errors.expirationDate}
      >
        <Input
          type="date"
          min={today}
          value={expirationDate}
          required={coi}
          disabled={pending}
          invalid={Boolean(errors.expirationDate)}
          onChange={(e) => {
            setExpirationDate(e.target.value);
            setErrors((prev) => ({ ...prev, expirationDate: undefined }));
          }}
        />
      </Field>
      <Field label="Notes">
        <Textarea
          rows={2}
          value={notes}
          maxLength={UPLOAD_NOTES_MAX_LENGTH}
          disabled={pending}
          onChange={(e) => setNotes(e.target.value)}
          placeholder="Optional"
        />
      </Field>
      {pending ? (
        <div className="space-y-1">
          <ProgressBar value={progress} label="Upload progress" />
          <p className="text-xs text-slate-500">{Math.round(progress)}%</p>
        </div>
      ) : null}
      <div className="flex sm:justify-end">
        <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={pending}>
          {pending ? 'Uploading...' : 'Upload'}
        </Button>
      </div>
    </form>
  );
}
