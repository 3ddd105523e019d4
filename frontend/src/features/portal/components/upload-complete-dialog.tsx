import { CheckCircleIcon } from '@heroicons/react/24/outline';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

type UploadCompleteDialogProps = {
  open: boolean;
  onClose: () => void;
  clientName: string;
  /** Done starts over: the page reloads, back to the company key step. */
  onDone?: () => void;
};

export function UploadCompleteDialog({
  open,
  onClose,
  clientName,
  onDone = () => window.location.reload(),
}: UploadCompleteDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      className="max-w-md text-center"
      title={
        <span className="flex flex-col items-center gap-3">
          <span className="flex size-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
            <CheckCircleIcon aria-hidden className="size-7" />
          </span>
          All documents uploaded
        </span>
      }
      description={`Thank you. Every document ${clientName} asked for is now on file.`}
    >
      <Button size="lg" className="w-full" onClick={onDone}>
        Done
      </Button>
    </Dialog>
  );
}
