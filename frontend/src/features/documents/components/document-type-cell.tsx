import { coiTypeLabel, documentTypeLabel } from '@/lib/domain/documents';
import type { VendorDocument } from '@/types/api';

/** The document type, with a COI's insurance type under it. */
export function DocumentTypeCell({ doc }: { doc: VendorDocument }) {
  const coi = coiTypeLabel(doc);
  return (
    <div className="min-w-36">
      <p className="text-slate-900">{documentTypeLabel(doc.documentType)}</p>
      {coi ? <p className="text-xs text-slate-500">{coi}</p> : null}
    </div>
  );
}
