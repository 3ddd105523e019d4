import { PlusIcon } from '@heroicons/react/20/solid';
// The outline icons: the first visit has them already (a new shared one would reshuffle the chunks).
import { PencilSquareIcon, TrashIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { toast } from '@/components/ui/toast';
import { useRequirementSets } from '@/lib/api/requirement-sets';
import { errorMessage } from '@/lib/api-error';
import { describeRequirementLine } from '@/lib/domain/coverage';
import { useRequirementsPermission } from '@/lib/permissions';
import type { RequirementSet } from '@/types/api';
import { useDeleteRequirementSet } from '../api/delete-requirement-set';
import { RequirementSetDialog } from '../components/requirement-set-dialog';

function vendorCountText(count: number): string {
  if (count === 0) return 'No vendors use it';
  return count === 1 ? '1 vendor uses it' : `${count} vendors use it`;
}

function SetRow({
  set,
  onEdit,
  onDelete,
}: {
  set: RequirementSet;
  onEdit: (set: RequirementSet) => void;
  onDelete: (set: RequirementSet) => void;
}) {
  const permission = useRequirementsPermission();
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-start sm:justify-between" data-testid="requirement-set">
      <div className="min-w-0">
        <h3 className="text-sm font-semibold text-slate-900">{set.name}</h3>
        <p className="text-xs text-slate-500">{vendorCountText(set.vendorCount)}</p>
        {set.lines.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No lines: vendors with this set have nothing to meet.</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm text-slate-700" aria-label={`Lines of ${set.name}`}>
            {set.lines.map((line) => (
              <li key={line.line}>{describeRequirementLine(line)}</li>
            ))}
          </ul>
        )}
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => onEdit(set)}
          disabled={!permission.allowed}
          title={permission.reason}
          aria-label={`Edit ${set.name}`}
        >
          <PencilSquareIcon aria-hidden className="size-4" />
          Edit
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onDelete(set)}
          disabled={!permission.allowed}
          title={permission.reason}
          aria-label={`Delete ${set.name}`}
        >
          <TrashIcon aria-hidden className="size-4" />
          Delete
        </Button>
      </div>
    </li>
  );
}

/** The organization's requirement sets: what each asks of its vendors, in words; admins and the owner change them. */
export function RequirementsRoute() {
  const permission = useRequirementsPermission();
  const sets = useRequirementSets();
  const remove = useDeleteRequirementSet();
  // undefined: the dialog is closed; null: a new set.
  const [editing, setEditing] = useState<RequirementSet | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<RequirementSet | null>(null);

  function confirmDelete() {
    if (!deleting) return;
    const { id, name } = deleting;
    remove.mutate(id, {
      onSuccess: () => {
        toast({ title: 'Requirement set deleted', description: `${name} is deleted.`, variant: 'success' });
        setDeleting(null);
      },
      onError: (error) => {
        toast({
          title: 'Could not delete the requirement set',
          description: errorMessage(error, 'Failed to delete the requirement set'),
          variant: 'error',
        });
        setDeleting(null);
      },
    });
  }

  return (
    <>
      <PageHeader
        title="Requirements"
        description="The insurance each kind of vendor must carry. Vendors are compared with their set."
        action={
          <Button onClick={() => setEditing(null)} disabled={!permission.allowed} title={permission.reason}>
            <PlusIcon aria-hidden className="size-4" />
            New set
          </Button>
        }
      />
      <div className="max-w-3xl">
        <Card>
          <CardHeader title="Requirement sets" description="Give a vendor a set on its form; its page then shows its gaps." />
          <CardBody className="py-0">
            {sets.isPending ? (
              <LoadingBlock label="Loading requirement sets" />
            ) : sets.isError ? (
              <QueryError error={sets.error} onRetry={() => void sets.refetch()} />
            ) : sets.data.length === 0 ? (
              <p className="py-4 text-sm text-slate-500">
                No requirement sets yet.{permission.allowed ? ' Start one from a template with New set.' : ''}
              </p>
            ) : (
              <ul className="divide-y divide-slate-100" aria-label="Requirement sets">
                {sets.data.map((set) => (
                  <SetRow key={set.id} set={set} onEdit={setEditing} onDelete={setDeleting} />
                ))}
              </ul>
            )}
          </CardBody>
        </Card>
      </div>
      {permission.allowed ? (
        <>
          <RequirementSetDialog open={editing !== undefined} onClose={() => setEditing(undefined)} set={editing ?? null} />
          <ConfirmDialog
            open={deleting !== null}
            onClose={() => setDeleting(null)}
            onConfirm={confirmDelete}
            pending={remove.isPending}
            title={`Delete ${deleting?.name ?? ''}?`}
            description={
              deleting && deleting.vendorCount > 0
                ? `${vendorCountText(deleting.vendorCount)}; they will have no requirements after.`
                : 'No vendor uses it.'
            }
          />
        </>
      ) : null}
    </>
  );
}

export default RequirementsRoute;
