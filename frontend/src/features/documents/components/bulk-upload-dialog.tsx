import { CheckCircleIcon, XMarkIcon } from '@heroicons/react/20/solid';
import { DocumentArrowUpIcon } from '@heroicons/react/24/outline';
import { useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/field';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { cn } from '@/lib/cn';
import {
  ACCEPTED_FILE_TYPES,
  ACCEPTED_FORMATS_TEXT,
  COI_TYPE_LABELS,
  COI_TYPES,
  DOCUMENT_TYPE_LABELS,
  DOCUMENT_TYPES,
} from '@/lib/domain/documents';
import { formatFileSize } from '@/lib/format';
import { useBulkUpload, type BulkUploadDetails, type BulkUploadItem } from '../hooks/use-bulk-upload';

const typeOptions = DOCUMENT_TYPES.map((value) => ({ value, label: DOCUMENT_TYPE_LABELS[value] }));
const coiOptions = COI_TYPES.map((value) => ({ value, label: COI_TYPE_LABELS[value] }));
const documentsNoun = (n: number) => `${n} ${n === 1 ? 'document' : 'documents'}`;

function FieldError({ message }: { message: string | undefined }) {
  return message ? <p className="text-sm text-red-600">{message}</p> : null;
}

type FileRowProps = {
  item: BulkUploadItem;
  locked: boolean;
  onChange: (details: Partial<BulkUploadDetails>) => void;
  onRemove: () => void;
};

/** One file: its type, insurance type (COI) and expiration date, its progress and its outcome. */
function FileRow({ item, locked, onChange, onRemove }: FileRowProps) {
  const name = item.file.name;
  const busy = locked || item.state === 'uploading' || item.state === 'done';
  return (
    <li aria-label={name} className="space-y-3 rounded-lg border border-slate-200 p-3">
      <div className="flex items-start justify-between gap-2">
        <p className="min-w-0 text-sm">
          <span className="block truncate font-medium text-slate-900" title={name}>
            {name}
          </span>
          <span className="text-xs text-slate-500">{formatFileSize(item.file.size)}</span>
        </p>
        {item.state !== 'done' ? (
          <Button variant="ghost" size="icon-sm" aria-label={`Remove ${name}`} onClick={onRemove} disabled={busy}>
            <XMarkIcon aria-hidden className="size-4" />
          </Button>
        ) : null}
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="space-y-1.5">
          <Select
            label="Document Type"
            placeholder="Select a document type"
            value={item.documentType}
            onChange={(documentType) => onChange({ documentType, coiType: documentType === 'coi' ? item.coiType : '' })}
            options={typeOptions}
            invalid={Boolean(item.fieldErrors.documentType)}
            disabled={busy}
          />
          <FieldError message={item.fieldErrors.documentType} />
        </div>
        {item.documentType === 'coi' ? (
          <div className="space-y-1.5">
            <Select
              label="Insurance Type"
              placeholder="Select an insurance type"
              value={item.coiType}
              onChange={(coiType) => onChange({ coiType })}
              options={coiOptions}
              invalid={Boolean(item.fieldErrors.coiType)}
              disabled={busy}
            />
            <FieldError message={item.fieldErrors.coiType} />
          </div>
        ) : null}
        <Field label="Expiration Date" error={item.fieldErrors.expirationDate}>
          <Input
            type="date"
            value={item.expirationDate}
            onChange={(e) => onChange({ expirationDate: e.target.value })}
            invalid={Boolean(item.fieldErrors.expirationDate)}
            disabled={busy}
          />
        </Field>
      </div>
      <FieldError message={item.fieldErrors.file} />
      {item.state === 'uploading' || item.state === 'done' ? (
        <ProgressBar value={item.progress} label={`Upload progress of ${name}`} />
      ) : null}
      {item.state === 'done' ? (
        <p className="flex items-center gap-1.5 text-sm text-emerald-700">
          <CheckCircleIcon aria-hidden className="size-4" />
          Document uploaded
        </p>
      ) : null}
      {item.state === 'failed' && item.error ? (
        <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">Upload failed: {item.error}</p>
      ) : null}
    </li>
  );
}

type BulkUploadDialogProps = { vendorId: string; open: boolean; onClose: () => void };

/** Bulk Upload: several files dropped or picked at once, each uploaded and reported on its own. */
export function BulkUploadDialog({ vendorId, open, onClose }: BulkUploadDialogProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const bulk = useBulkUpload(vendorId);
  const toUpload = bulk.items.filter((item) => item.state === 'ready' || item.state === 'failed').length;

  function close() {
    if (bulk.running) return;
    bulk.reset();
    onClose();
  }

  async function upload() {
    const { uploaded, failed } = await bulk.start();
    if (uploaded && !failed) {
      toast({ title: `${documentsNoun(uploaded)} uploaded`, variant: 'success' });
      bulk.reset();
      onClose();
    } else if (uploaded) {
      toast({ title: `${documentsNoun(uploaded)} uploaded`, description: `${failed} could not be uploaded`, variant: 'error' });
    } else if (failed) {
      toast({ title: 'Upload failed', description: `${failed} could not be uploaded`, variant: 'error' });
    }
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Bulk Upload"
      description="Add several documents at once. Give each file its type and, if it expires, its expiration date."
      className="max-w-3xl"
    >
      <div className="space-y-4">
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            if (!bulk.running) bulk.add(e.dataTransfer.files);
          }}
          data-testid="bulk-drop-zone"
          className={cn(
            'flex flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center',
            dragging ? 'border-blue-400 bg-blue-50' : 'border-slate-300 bg-slate-50',
          )}
        >
          <DocumentArrowUpIcon aria-hidden className="size-8 text-slate-400" />
          <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
            Files
          </label>
          <input
            ref={input}
            id={inputId}
            type="file"
            multiple
            accept={ACCEPTED_FILE_TYPES}
            disabled={bulk.running}
            onChange={(e) => {
              if (e.target.files) bulk.add(e.target.files);
              e.target.value = '';
            }}
            className="max-w-full rounded-md text-sm text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 file:mr-3 file:rounded-md file:border-0 file:bg-blue-600 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-white hover:file:bg-blue-700"
          />
          <p className="text-xs text-slate-500">Drop files here. {ACCEPTED_FORMATS_TEXT}, up to 10MB each</p>
        </div>
        {bulk.items.length ? (
          <ul aria-label="Files to upload" className="max-h-[50vh] space-y-3 overflow-y-auto">
            {bulk.items.map((item) => (
              <FileRow
                key={item.key}
                item={item}
                locked={bulk.running}
                onChange={(details) => bulk.update(item.key, details)}
                onRemove={() => bulk.remove(item.key)}
              />
            ))}
          </ul>
        ) : null}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close} disabled={bulk.running}>
            {bulk.items.some((item) => item.state === 'done') ? 'Close' : 'Cancel'}
          </Button>
          <Button onClick={() => void upload()} disabled={bulk.running || toUpload === 0}>
            {bulk.running ? 'Uploading...' : `Upload ${toUpload} ${toUpload === 1 ? 'file' : 'files'}`}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
