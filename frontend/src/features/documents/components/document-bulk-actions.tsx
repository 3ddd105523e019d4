import { ArrowDownTrayIcon, ArrowPathIcon, TrashIcon } from '@heroicons/react/20/solid';
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
import { useWritePermission } from '@/lib/permissions';
import { useBulkDeleteDocuments } from '../api/bulk-delete-documents';
import { useDownloadArchive } from '../api/download-archive';

const documentsNoun = (n: number) => `${n} ${n === 1 ? 'document' : 'documents'}`;

type DocumentBulkActionsProps = {
  /** The selected document ids, in the list's order. */
  ids: string[];
  /** How many are selected when that is not `ids.length`: more than their ids (the actions stay off). */
  count?: number;
  onClear: () => void;
};

/** Download ZIP and Delete for the selected documents (Professional; Free gets the upgrade prompt). */
export function DocumentBulkActions({ ids, count = ids.length, onClear }: DocumentBulkActionsProps) {
  const client = useQueryClient();
  const gate = usePlanGate();
  const archive = useDownloadArchive();
  const deletion = useBulkDeleteDocuments();
  const [confirming, setConfirming] = useState(false);
  const write = useWritePermission();
  const tooMany = tooManySelected(count) || count !== ids.length;

  function onFailure(title: string, error: unknown, fallback: string) {
    if (gate.handlePlanError(error)) return;
    bulkFailureToast(title, error, fallback);
    // Something in the list is stale (a document went elsewhere): show the list as it is now.
    if (isApiError(error) && error.code === ERROR_CODES.notFound) void invalidateCompliance(client);
  }

  function download() {
    archive.mutate(ids, {
      onSuccess: (fileName) => toast({ title: 'Download started', description: fileName, variant: 'success' }),
      onError: (error) => onFailure('Download failed', error, 'Failed to download documents'),
    });
  }

  function remove() {
    deletion.mutate(ids, {
      onSuccess: ({ deleted }) => {
        toast({ title: `${documentsNoun(deleted)} deleted`, variant: 'success' });
        setConfirming(false);
        onClear();
      },
      onError: (error) => {
        setConfirming(false);
        onFailure('Delete failed', error, 'Failed to delete documents');
      },
    });
  }

  return (
    <>
      <BulkActionBar count={count} onClear={onClear}>
        <Button
          variant="outline"
          size="sm"
          onClick={() => gate.guard(download)}
          disabled={tooMany || archive.isPending}
          aria-busy={archive.isPending || undefined}
        >
          {archive.isPending ? (
            <ArrowPathIcon aria-hidden data-testid="zip-spinner" className="size-4 animate-spin" />
          ) : (
            <ArrowDownTrayIcon aria-hidden className="size-4" />
          )}
          Download ZIP
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
        title={`Delete ${documentsNoun(count)}?`}
        description="This action cannot be undone. This will permanently delete the selected documents and remove them from our servers."
        onConfirm={remove}
      />
      {gate.dialog}
    </>
  );
}
