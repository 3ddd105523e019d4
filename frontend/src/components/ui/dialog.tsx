import { Description, Dialog as HeadlessDialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Button } from './button';

type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
};

export function Dialog({ open, onClose, title, description, children, className }: DialogProps) {
  return (
    // The dialog element itself covers the screen, so it has a box (and reads as visible).
    <HeadlessDialog open={open} onClose={onClose} className="fixed inset-0 z-50 overflow-y-auto">
      <DialogBackdrop
        transition
        className="fixed inset-0 bg-slate-900/40 transition-opacity duration-150 data-[closed]:opacity-0"
      />
      <div className="relative flex min-h-full items-end justify-center p-4 sm:items-center">
        <DialogPanel
          transition
          className={cn(
            'w-full max-w-lg rounded-2xl bg-white p-6 shadow-xl transition duration-150 data-[closed]:translate-y-2 data-[closed]:opacity-0',
            className,
          )}
        >
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
          {description ? <Description className="mt-2 text-sm text-slate-600">{description}</Description> : null}
          {children ? <div className="mt-4">{children}</div> : null}
        </DialogPanel>
      </div>
    </HeadlessDialog>
  );
}

type ConfirmDialogProps = {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  description: string;
  confirmLabel?: string;
  pendingLabel?: string;
  cancelLabel?: string;
  pending?: boolean;
};

/** An "are you sure" dialog: Cancel (focused on opening) and a destructive confirm button. */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  description,
  confirmLabel = 'Delete',
  pendingLabel = 'Deleting...',
  cancelLabel = 'Cancel',
  pending = false,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={pending ? () => undefined : onClose}
      title={title}
      description={description}
      className="max-w-md"
    >
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {/* The safe choice has the focus first (WAI-ARIA's alert dialog pattern). */}
        <Button variant="outline" onClick={onClose} disabled={pending} autoFocus>
          {cancelLabel}
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={pending}>
          {pending ? pendingLabel : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
