import { ArrowPathIcon } from '@heroicons/react/20/solid';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { EMAIL_MAX_LENGTH } from '@/config';
import { errorMessage } from '@/lib/api-error';
import { assignableRoles, ROLE_LABELS } from '@/lib/roles';
import { useUser } from '@/lib/session';
import { validateEmail } from '@/lib/validation';
import { useCreateInvitation, type InvitationInput } from '../api/create-invitation';

type InvitableRole = InvitationInput['orgRole'];

/** Invite someone by email with a role; admin is offered to the owner only. */
export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const user = useUser();
  const roles = assignableRoles(user) as InvitableRole[];
  const [email, setEmail] = useState('');
  const [orgRole, setOrgRole] = useState<InvitableRole>('member');
  const [error, setError] = useState<string | undefined>();
  const invite = useCreateInvitation();

  function close() {
    if (invite.isPending) return;
    setEmail('');
    setOrgRole('member');
    setError(undefined);
    invite.reset();
    onClose();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validateEmail(email);
    setError(invalid);
    if (invalid) return;
    invite.mutate(
      { email, orgRole },
      {
        onSuccess: (invitation) => {
          toast({
            title: 'Invitation sent',
            description: `We emailed an invitation to ${invitation.email}.`,
            variant: 'success',
          });
          setEmail('');
          setOrgRole('member');
          onClose();
        },
        onError: (failure) => {
          const message = errorMessage(failure, 'Failed to send the invitation');
          setError(failure.fieldError('email') ?? message);
          toast({ title: 'Could not invite', description: message, variant: 'error' });
        },
      },
    );
  }

  return (
    <Dialog open={open} onClose={close} title="Invite someone" description="They get an email with a link to join your team.">
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Invite someone">
        <Field label="Email address" error={error}>
          <Input
            type="email"
            name="email"
            autoComplete="off"
            maxLength={EMAIL_MAX_LENGTH}
            placeholder="colleague@company.com"
            value={email}
            invalid={Boolean(error)}
            onChange={(event) => setEmail(event.target.value)}
          />
        </Field>
        <Select
          label="Role"
          value={orgRole}
          onChange={setOrgRole}
          options={roles.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close} disabled={invite.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={invite.isPending} aria-busy={invite.isPending || undefined}>
            {invite.isPending ? <ArrowPathIcon aria-hidden className="size-4 animate-spin" /> : null}
            {invite.isPending ? 'Sending...' : 'Send invitation'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
