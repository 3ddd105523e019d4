import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import type { PaymentStatus } from '@/types/api';
import { UpgradeButton } from './upgrade-button';

/** Said before asking the server when the plan is known to be Free; the server's own sentence wins when it sends one. */
export const PLAN_REQUIRED_TEXT = 'Bulk document operations are part of the Professional plan.';

type PlanRequiredDialogProps = {
  /** The sentence to show; the dialog is open while there is one. */
  message: string | null;
  status: PaymentStatus | undefined;
  onClose: () => void;
};

/** A Professional-only action tried on Free: the reason and Upgrade Now, instead of a failure. */
export function PlanRequiredDialog({ message, status, onClose }: PlanRequiredDialogProps) {
  return (
    <Dialog open={message !== null} onClose={onClose} title="Upgrade to Professional" description={message} className="max-w-md">
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          Not now
        </Button>
        {status ? <UpgradeButton status={status} noticeClassName="text-slate-600" /> : null}
      </div>
    </Dialog>
  );
}
