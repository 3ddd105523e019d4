import { ClipboardDocumentCheckIcon, EnvelopeIcon, TrashIcon } from '@heroicons/react/20/solid';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { usePlanGate } from '@/components/plan/use-plan-gate';
import { BulkActionBar, tooManySelected } from '@/components/ui/bulk-action-bar';
import { bulkFailureToast } from '@/components/ui/bulk-failure';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { ERROR_CODES, isApiError } from '@/lib/api-error';
import { invalidateCompliance } from '@/lib/query-keys';
import type { RenewalRequestResult, Vendor } from '@/types/api';
import { useWritePermission } from '@/lib/permissions';
import { useAssignRequirementSet } from '../api/assign-requirement-set';
import { useBulkDeleteVendors } from '../api/bulk-delete-vendors';
import { useSendRenewalRequests } from '../api/send-renewal-requests';
import { SetRequirementsDialog } from './set-requirements-dialog';

const vendorsNoun = (n: number) => `${n} ${n === 1 ? 'vendor' : 'vendors'}`;

/** 'Renewal requests sent to N vendors', and who was left out: 'Acme: already asked today'. */
export function renewalToast(result: RenewalRequestResult, names: ReadonlyMap<string, string>) {
  const skipped = result.skipped.map((s) => names.get(s.id) ?? s.id);
  toast({
    title: `Renewal requests sent to ${vendorsNoun(result.sent.length)}`,
    description: skipped.length ? `${skipped.join(', ')}: already asked today` : undefined,
    variant: result.sent.length ? 'success' : 'default',
  });
}

type VendorBulkActionsProps = {
  /** The selected vendor ids (company keys), in the list's order. */
  ids: string[];
  /** How many are selected when that is not `ids.length`: more than their ids (the actions stay off). */
  count?: number;
  vendors: readonly Pick<Vendor, 'id' | 'name'>[];
  onClear: () => void;
};

/**
 * Set requirements (both plans: the assign call is not a Professional one), and Send renewal
 * requests and Delete (Professional; Free gets the upgrade prompt) for the selected vendors.
 */
export function VendorBulkActions({ ids, count = ids.length, vendors, onClear }: VendorBulkActionsProps) {
  const client = useQueryClient();
  const gate = usePlanGate();
  const renewals = useSendRenewalRequests();
  const deletion = useBulkDeleteVendors();
  const assignment = useAssignRequirementSet();
  const write = useWritePermission();
  const [confirming, setConfirming] = useState(false);
  const [assigning, setAssigning] = useState(false);
  const tooMany = tooManySelected(count) || count !== ids.length;

  function onFailure(title: string, error: unknown, fallback: string) {
    if (gate.handlePlanError(error)) return;
    bulkFailureToast(title, error, fallback);
    if (isApiError(error) && error.code === ERROR_CODES.notFound) void invalidateCompliance(client);
  }

  function sendRenewals() {
    const names = new Map(vendors.map((v) => [v.id, v.name]));
    renewals.mutate(ids, {
      onSuccess: (result) => renewalToast(result, names),
      onError: (error) => onFailure('Renewal requests failed', error, 'Failed to send renewal requests'),
    });
  }

  function assign(requirementSetId: string | null) {
    assignment.mutate(
      { ids, requirementSetId },
      {
        onSuccess: ({ updated }) => {
          toast({ title: `Requirements set for ${vendorsNoun(updated)}`, variant: 'success' });
          setAssigning(false);
        },
        onError: (error) => {
          setAssigning(false);
          onFailure('Setting requirements failed', error, 'Failed to set requirements');
        },
      },
    );
  }

  function remove() {
    deletion.mutate(ids, {
      onSuccess: ({ deleted }) => {
        toast({ title: `${vendorsNoun(deleted)} deleted`, variant: 'success' });
        setConfirming(false);
        onClear();
      },
      onError: (error) => {
        setConfirming(false);
        onFailure('Delete failed', error, 'Failed to delete vendors');
      },
    });
  }

  return (
    <>
      <BulkActionBar count={count} onClear={onClear}>
        {/* Not a Professional call: no plan gate. A viewer, who may not change vendors, is not offered it. */}
        {write.allowed ? (
          <Button
            variant="outline"
            size="sm"
            onClick={() => setAssigning(true)}
            disabled={tooMany || assignment.isPending}
            aria-busy={assignment.isPending || undefined}
          >
            <ClipboardDocumentCheckIcon aria-hidden className="size-4" />
            Set requirements
          </Button>
        ) : null}
        <Button
          variant="outline"
          size="sm"
          onClick={() => gate.guard(sendRenewals)}
          disabled={tooMany || renewals.isPending || !write.allowed}
          title={write.reason}
          aria-busy={renewals.isPending || undefined}
        >
          <EnvelopeIcon aria-hidden className="size-4" />
          {renewals.isPending ? 'Sending...' : 'Send renewal requests'}
        </Button>
        <Button
          variant="danger"
          size="sm"
          onClick={() => gate.guard(() => setConfirming(true))}
          disabled={tooMany || !write.allowed}
          title={write.reason}
        >
          <TrashIcon aria-hidden className="size-4" />
          Delete
        </Button>
      </BulkActionBar>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        pending={deletion.isPending}
        title={`Delete ${vendorsNoun(count)}?`}
        description="This action cannot be undone. This will permanently delete the selected vendors and all associated documents."
        onConfirm={remove}
      />
      <SetRequirementsDialog
        open={assigning}
        count={count}
        pending={assignment.isPending}
        onClose={() => setAssigning(false)}
        onApply={assign}
      />
      {gate.dialog}
    </>
  );
}
