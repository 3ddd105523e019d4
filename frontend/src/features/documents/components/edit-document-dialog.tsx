import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Textarea } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { COI_TYPE_LABELS, COI_TYPES, documentTypeLabel, userNotes } from '@/lib/domain/documents';
import type { CoiType, VendorDocument } from '@/types/api';
import { useUpdateDocument } from '../api/update-document';

const coiOptions = COI_TYPES.map((value) => ({ value, label: COI_TYPE_LABELS[value] }));

function EditDocumentForm({ document, onDone }: { document: VendorDocument; onDone: () => void }) {
  const update = useUpdateDocument();
  const [coiType, setCoiType] = useState<CoiType | ''>(document.coiType ?? '');
  const [expirationDate, setExpirationDate] = useState(document.expirationDate ?? '');
  const [notes, setNotes] = useState(document.documentType === 'coi' ? userNotes(document.notes) : (document.notes ?? ''));
  const [error, setError] = useState<string>();
  const isCoi = document.documentType === 'coi';

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isCoi && !coiType) {
      setError('Please select an insurance type for the COI');
      return;
    }
    update.mutate(
      {
        id: document.id,
        data: { ...(isCoi && coiType ? { coiType } : {}), expirationDate: expirationDate || null, notes: notes.trim() },
      },
      {
        onSuccess: () => {
          toast({ title: 'Document updated', description: document.fileName, variant: 'success' });
          onDone();
        },
        onError: (e) => {
          setError(e.fieldError('expirationDate') ?? e.fieldError('coiType'));
          toast({ title: 'Update failed', description: e.message || 'Failed to update document', variant: 'error' });
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Edit Document">
      <p className="text-sm text-slate-600">
        <span className="font-medium text-slate-900">{document.fileName}</span> · {documentTypeLabel(document.documentType)}
      </p>
      {isCoi ? <Select label="Insurance Type" value={coiType} onChange={setCoiType} options={coiOptions} /> : null}
      <Field label="Expiration Date" hint="Leave empty for a document that does not expire.">
        <Input type="date" value={expirationDate} onChange={(e) => setExpirationDate(e.target.value)} />
      </Field>
      <Field label="Notes">
        <Textarea rows={3} value={notes} onChange={(e) => setNotes(e.target.value)} />
      </Field>
      {error ? (
        <p className="text-sm text-red-600" role="alert">
          {error}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}

export function EditDocumentDialog({ document, onClose }: { document: VendorDocument | null; onClose: () => void }) {
  return (
    <Dialog open={document !== null} onClose={onClose} title="Edit Document">
      {document ? <EditDocumentForm key={document.id} document={document} onDone={onClose} /> : null}
    </Dialog>
  );
}
