import { ArrowPathIcon, UserPlusIcon } from '@heroicons/react/20/solid';
import { formatDistance } from 'date-fns';
import { useState } from 'react';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { canManageTeam, isOwner } from '@/lib/permissions';
import { assignableRoles, canManageMember, ROLE_LABELS } from '@/lib/roles';
import { useUser } from '@/lib/session';
import type { Invitation, OrgRole, TeamMember } from '@/types/api';
import { useCreateInvitation } from '../api/create-invitation';
import { useInvitations } from '../api/get-invitations';
import { useMembers } from '../api/get-members';
import { useRemoveMember } from '../api/remove-member';
import { useRevokeInvitation } from '../api/revoke-invitation';
import { useTransferOwnership } from '../api/transfer-ownership';
import { useUpdateMemberRole, type RoleChange } from '../api/update-member-role';
import { InviteDialog } from '../components/invite-dialog';

const ROLE_COLORS: Record<OrgRole, string> = {
  owner: 'bg-violet-50 text-violet-700 ring-violet-600/20',
  admin: 'bg-blue-50 text-blue-700 ring-blue-600/20',
  member: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  viewer: 'bg-slate-100 text-slate-700 ring-slate-500/20',
};

/** The role as a badge, in the colours of components/ui/badge. */
function RoleBadge({ role }: { role: OrgRole }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${ROLE_COLORS[role]}`}
    >
      {ROLE_LABELS[role]}
    </span>
  );
}

/** 'Active 5 minutes ago', 'Never signed in' before the first visit. */
export function lastActiveText(lastActiveAt: string | null | undefined, now = new Date()): string {
  if (!lastActiveAt) return 'Not active yet';
  const at = new Date(lastActiveAt);
  if (Number.isNaN(at.getTime())) return 'Not active yet';
  return `Active ${formatDistance(at > now ? now : at, now, { addSuffix: true })}`;
}

function RoleSelect({ member }: { member: TeamMember }) {
  const user = useUser();
  const update = useUpdateMemberRole();
  const roles = assignableRoles(user) as RoleChange['orgRole'][];
  const value = (update.isPending ? update.variables.orgRole : member.orgRole) as RoleChange['orgRole'];

  function change(orgRole: RoleChange['orgRole']) {
    if (orgRole === member.orgRole) return;
    update.mutate(
      { id: member.id, orgRole },
      {
        onSuccess: (changed) =>
          toast({
            title: 'Role changed',
            description: `${changed.name} is now ${ROLE_LABELS[changed.orgRole].toLowerCase()}.`,
            variant: 'success',
          }),
        onError: (error) =>
          toast({
            title: 'Could not change the role',
            description: errorMessage(error, 'Failed to change the role'),
            variant: 'error',
          }),
      },
    );
  }

  return (
    <Select
      label={`Role of ${member.name}`}
      hideLabel
      value={value}
      onChange={change}
      disabled={update.isPending}
      className="w-36"
      options={roles.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
    />
  );
}

function MemberRow({
  member,
  onRemove,
  onTransfer,
}: {
  member: TeamMember;
  onRemove: (member: TeamMember) => void;
  onTransfer: (member: TeamMember) => void;
}) {
  const user = useUser();
  const manageable = canManageMember(user, member);
  const self = user?.id === member.id;
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid="member-row">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
          {member.name}
          {self ? <span className="text-slate-500">(you)</span> : null}
          {manageable ? null : <RoleBadge role={member.orgRole} />}
        </p>
        <p className="truncate text-sm text-slate-500">{member.email}</p>
        <p className="text-xs text-slate-500">
          {lastActiveText(member.lastActiveAt)} · Joined {formatDate(member.joinedAt)}
        </p>
      </div>
      {manageable || (isOwner(user) && !self) ? (
        <div className="flex flex-wrap items-center gap-2">
          {manageable ? <RoleSelect member={member} /> : null}
          {isOwner(user) && !self ? (
            <Button variant="outline" size="sm" onClick={() => onTransfer(member)}>
              Make owner
            </Button>
          ) : null}
          {manageable ? (
            <Button variant="outline" size="sm" onClick={() => onRemove(member)}>
              Remove
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function Members() {
  const members = useMembers();
  const remove = useRemoveMember();
  const transfer = useTransferOwnership();
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const [transferring, setTransferring] = useState<TeamMember | null>(null);

  function confirmRemove() {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        toast({ title: 'Removed', description: `${removing.name} no longer has access.`, variant: 'success' });
        setRemoving(null);
      },
      onError: (error) => {
        toast({ title: 'Could not remove', description: errorMessage(error, 'Failed to remove this person'), variant: 'error' });
        setRemoving(null);
      },
    });
  }

  function confirmTransfer() {
    if (!transferring) return;
    transfer.mutate(transferring.id, {
      onSuccess: (owner) => {
        toast({
          title: 'Ownership transferred',
          description: `${owner.name} is now the owner; you are an admin.`,
          variant: 'success',
        });
        setTransferring(null);
      },
      onError: (error) => {
        toast({
          title: 'Could not transfer ownership',
          description: errorMessage(error, 'Failed to transfer ownership'),
          variant: 'error',
        });
        setTransferring(null);
      },
    });
  }

  return (
    <Card>
      <CardHeader title="People" description="Everyone who can sign in to your organization" />
      <CardBody className="py-0">
        {members.isPending ? (
          <LoadingBlock label="Loading people" />
        ) : members.isError ? (
          <QueryError error={members.error} onRetry={() => void members.refetch()} />
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="People">
            {members.data.map((member) => (
              <MemberRow key={member.id} member={member} onRemove={setRemoving} onTransfer={setTransferring} />
            ))}
          </ul>
        )}
      </CardBody>
      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        onConfirm={confirmRemove}
        pending={remove.isPending}
        title={`Remove ${removing?.name ?? ''}?`}
        description="Their account is deleted and they are signed out everywhere. What they made stays."
        confirmLabel="Remove"
        pendingLabel="Removing..."
      />
      <ConfirmDialog
        open={transferring !== null}
        onClose={() => setTransferring(null)}
        onConfirm={confirmTransfer}
        pending={transfer.isPending}
        title={`Make ${transferring?.name ?? ''} the owner?`}
        description="They become the owner of the organization and you become an admin. Only they can give ownership back."
        confirmLabel="Transfer ownership"
        pendingLabel="Transferring..."
      />
    </Card>
  );
}

function InvitationRow({ invitation }: { invitation: Invitation }) {
  const resend = useCreateInvitation();
  const revoke = useRevokeInvitation();
  const user = useUser();
  // An admin invitation is re-sent by the owner only (the server refuses it otherwise).
  const mayResend = invitation.orgRole !== 'admin' || isOwner(user);
  const busy = resend.isPending || revoke.isPending;

  function doResend() {
    resend.mutate(
      { email: invitation.email, orgRole: invitation.orgRole as RoleChange['orgRole'] },
      {
        onSuccess: () =>
          toast({ title: 'Invitation sent again', description: `A new link went to ${invitation.email}.`, variant: 'success' }),
        onError: (error) =>
          toast({
            title: 'Could not resend',
            description: errorMessage(error, 'Failed to resend the invitation'),
            variant: 'error',
          }),
      },
    );
  }

  function doRevoke() {
    revoke.mutate(invitation.id, {
      onSuccess: () =>
        toast({
          title: 'Invitation revoked',
          description: `The link sent to ${invitation.email} no longer works.`,
          variant: 'success',
        }),
      onError: (error) =>
        toast({
          title: 'Could not revoke',
          description: errorMessage(error, 'Failed to revoke the invitation'),
          variant: 'error',
        }),
    });
  }

  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid="invitation-row">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
          {invitation.email}
          <RoleBadge role={invitation.orgRole} />
        </p>
        <p className="text-xs text-slate-500">
          Invited by {invitation.invitedBy} · Expires {formatDate(invitation.expiresAt)}
        </p>
      </div>
      <div className="flex items-center gap-2">
        {mayResend ? (
          <Button variant="outline" size="sm" onClick={doResend} disabled={busy} aria-busy={resend.isPending || undefined}>
            {resend.isPending ? <ArrowPathIcon aria-hidden className="size-4 animate-spin" /> : null}
            Resend
          </Button>
        ) : null}
        <Button variant="outline" size="sm" onClick={doRevoke} disabled={busy} aria-busy={revoke.isPending || undefined}>
          {revoke.isPending ? <ArrowPathIcon aria-hidden className="size-4 animate-spin" /> : null}
          Revoke
        </Button>
      </div>
    </li>
  );
}

function PendingInvitations() {
  const invitations = useInvitations({ enabled: true });
  return (
    <Card>
      <CardHeader title="Pending invitations" description="Links that have not been used yet" />
      <CardBody className="py-0">
        {invitations.isPending ? (
          <LoadingBlock label="Loading invitations" />
        ) : invitations.isError ? (
          <QueryError error={invitations.error} onRetry={() => void invitations.refetch()} />
        ) : invitations.data.length === 0 ? (
          <p className="py-4 text-sm text-slate-500">No pending invitations.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Pending invitations">
            {invitations.data.map((invitation) => (
              <InvitationRow key={invitation.id} invitation={invitation} />
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

export function TeamRoute() {
  const user = useUser();
  const manager = canManageTeam(user);
  const [inviting, setInviting] = useState(false);
  return (
    <>
      <PageHeader
        title="Team"
        description={
          user ? `You are ${ROLE_LABELS[user.orgRole].toLowerCase()} of this organization` : 'The people of your organization'
        }
        action={
          manager ? (
            <Button onClick={() => setInviting(true)}>
              <UserPlusIcon aria-hidden className="size-4" />
              Invite
            </Button>
          ) : undefined
        }
      />
      <div className="max-w-3xl space-y-6">
        <Members />
        {manager ? <PendingInvitations /> : null}
      </div>
      {manager ? <InviteDialog open={inviting} onClose={() => setInviting(false)} /> : null}
    </>
  );
}

export default TeamRoute;
