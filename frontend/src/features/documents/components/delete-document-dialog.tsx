import { ConfirmDialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import type { VendorDocument } from '@/types/api';
import { useDeleteDocument } from '../api/delete-document';

export function DeleteDocumentDialog({ document, onClose }: { document: VendorDocument | null; onClose: () => void }) {
  const deletion = useDeleteDocument();
  return (
    <ConfirmDialog
      open={document !== null}
      onClose={onClose}
      pending={deletion.isPending}
      title="Are you sure?"
      description="This action cannot be undone. This will permanently delete the document and remove it from our servers."
      onConfirm={() => {
        if (!document) return;
        deletion.mutate(document.id, {
          onSuccess: () => {
            toast({ title: 'Document deleted', description: document.fileName, variant: 'success' });
            onClose();
          },
          onError: (error) => {
            toast({ title: 'Error', description: `Failed to delete document: ${error.message}`, variant: 'error' });
            onClose();
          },
        });
      }}
    />
  );
}
