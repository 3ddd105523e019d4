import { Dialog } from '@/components/ui/dialog';
import type { VendorDocument } from '@/types/api';
import { AMOUNTS_HINT, CoverageForm } from './coverage-form';

/** The vendor page's Coverage action: the certificate's coverage form in a dialog. */
export function CoverageDialog({ document, onClose }: { document: VendorDocument | null; onClose: () => void }) {
  return (
    <Dialog
      open={document !== null}
      onClose={onClose}
      title="Certificate coverage"
      description={document ? `What ${document.fileName} shows. ${AMOUNTS_HINT}` : undefined}
      className="max-w-3xl"
    >
      {document ? <CoverageForm key={document.id} document={document} onSaved={onClose} onCancel={onClose} /> : null}
    </Dialog>
  );
}
