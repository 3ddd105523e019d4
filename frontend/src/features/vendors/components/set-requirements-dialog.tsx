import { ArrowPathIcon } from '@heroicons/react/20/solid';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { Select } from '@/components/ui/select';
import { useRequirementSets } from '@/lib/api/requirement-sets';

/** The option for no set (set ids are never this), and the value before anything is chosen. */
const NO_REQUIREMENTS = 'none';
const UNCHOSEN = '';

type SetRequirementsDialogProps = {
  open: boolean;
  /** How many vendors are selected, for the description. */
  count: number;
  pending: boolean;
  onClose: () => void;
  /** The chosen set's id, or null for no requirements. */
  onApply: (requirementSetId: string | null) => void;
};

/**
 * Set requirements (bulk): one of the organization's requirement sets, or "No requirements",
 * for every selected vendor. Without any set, it says so and links to the Requirements page.
 */
export function SetRequirementsDialog({ open, count, pending, onClose, onApply }: SetRequirementsDialogProps) {
  const noun = count === 1 ? 'the selected vendor' : `the ${count} selected vendors`;
  return (
    <Dialog
      open={open}
      onClose={pending ? () => undefined : onClose}
      title="Set requirements"
      description={`Choose the insurance ${noun} must carry; each vendor's page then shows its gaps.`}
    >
      {open ? <SetRequirementsForm pending={pending} onClose={onClose} onApply={onApply} /> : null}
    </Dialog>
  );
}

function SetRequirementsForm({ pending, onClose, onApply }: Omit<SetRequirementsDialogProps, 'open' | 'count'>) {
  const sets = useRequirementSets();
  const [choice, setChoice] = useState(UNCHOSEN);

  if (sets.isPending) return <LoadingBlock label="Loading requirement sets" />;
  if (sets.isError) return <QueryError error={sets.error} onRetry={() => void sets.refetch()} />;

  if (sets.data.length === 0) {
    return (
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          Your organization has no requirement sets yet.{' '}
          <Link to="/account/requirements" className="font-medium text-blue-600 hover:text-blue-700">
            Create one on the Requirements page
          </Link>
          , then come back to give it to these vendors.
        </p>
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    );
  }

  const options = [
    ...sets.data.map((set) => ({ value: set.id, label: set.name })),
    { value: NO_REQUIREMENTS, label: 'No requirements' },
  ];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (choice === UNCHOSEN) return;
    onApply(choice === NO_REQUIREMENTS ? null : choice);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Set requirements">
      <Select
        label="Requirement set"
        value={choice}
        onChange={setChoice}
        options={options}
        placeholder="Choose a set"
        disabled={pending}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={choice === UNCHOSEN || pending} aria-busy={pending || undefined}>
          {pending ? <ArrowPathIcon aria-hidden className="size-4 animate-spin" /> : null}
          {pending ? 'Applying...' : 'Apply'}
        </Button>
      </div>
    </form>
  );
}
