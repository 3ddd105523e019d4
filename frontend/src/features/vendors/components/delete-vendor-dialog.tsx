import { ConfirmDialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import type { Vendor } from '@/types/api';
import { useDeleteVendor } from '../api/delete-vendor';

type DeleteVendorDialogProps = {
  vendor: Pick<Vendor, 'id' | 'name'> | null;
  onClose: () => void;
  onDeleted?: () => void;
};

/** 'Are you sure?' before a vendor and all its documents go. */
export function DeleteVendorDialog({ vendor, onClose, onDeleted }: DeleteVendorDialogProps) {
  const deletion = useDeleteVendor();
  return (
    <ConfirmDialog
      open={vendor !== null}
      onClose={onClose}
      pending={deletion.isPending}
      title="Are you sure?"
      description="This action cannot be undone. This will permanently delete the vendor and all associated documents."
      onConfirm={() => {
        if (!vendor) return;
        deletion.mutate(vendor.id, {
          onSuccess: () => {
            toast({ title: 'Vendor deleted', description: 'The vendor has been successfully deleted.', variant: 'success' });
            onClose();
            onDeleted?.();
          },
          onError: (error) => {
            toast({ title: 'Error', description: `Failed to delete vendor: ${error.message}`, variant: 'error' });
            onClose();
          },
        });
      }}
    />
  );
}
