import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createAccount, db } from '@/testing/mocks/db';
import { http } from '@/testing/mocks/http';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';
import type { OrgRole } from '@/types/api';
import { lastActiveText } from './team';

/** Signs in as `role` in a team of an owner, an admin, a member and a viewer. */
function team(role: OrgRole) {
  const people: Record<OrgRole, string> = {
    owner: 'Olive Owner',
    admin: 'Adam Admin',
    member: 'Mia Member',
    viewer: 'Vic Viewer',
  };
  const me = signInAs({ name: people[role], email: `${role}@example.com`, orgRole: role });
  for (const other of ['owner', 'admin', 'member', 'viewer'] as const) {
    if (other !== role) createAccount({ name: people[other], email: `${other}@example.com`, orgRole: other });
  }
  db.team.lastActive.set(me.id, new Date(Date.now() - 5 * 60_000).toISOString());
  return me;
}

async function row(name: string) {
  const rows = await screen.findAllByTestId('member-row');
  const found = rows.find((r) => within(r).queryByText(name));
  if (!found) throw new Error(`no row for ${name}`);
  return within(found);
}

describe('team page', () => {
  it('is in the account navigation', async () => {
    signInAs();
    const { user, router } = renderApp('/dashboard');
    const account = within(await screen.findByTestId('sidebar')).getByRole('navigation', { name: 'Account' });
    await user.click(within(account).getByRole('link', { name: 'Team' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Team' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/team');
  });

  it('shows the owner every control: role selects, remove, transfer, invitations', async () => {
    team('owner');
    db.team.invitations = [
      {
        id: 'inv-1',
        token: 't1',
        email: 'new@example.com',
        orgRole: 'viewer',
        invitedBy: 'Olive Owner',
        createdAt: '2025-01-01T00:00:00Z',
        expiresAt: '2025-01-08T00:00:00Z',
      },
    ];
    renderApp('/account/team');
    const me = await row('Olive Owner');
    expect(me.getByText('Owner')).toBeInTheDocument();
    expect(me.getByText('Active 5 minutes ago', { exact: false })).toBeInTheDocument();
    expect(me.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    const admin = await row('Adam Admin');
    expect(admin.getByRole('button', { name: /Role of Adam Admin/ })).toBeInTheDocument();
    expect(admin.getByRole('button', { name: 'Remove' })).toBeInTheDocument();
    expect(admin.getByRole('button', { name: 'Make owner' })).toBeInTheDocument();
    expect(admin.getByText('Not active yet', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Invite' })).toBeInTheDocument();
    const invitations = within(await screen.findByRole('list', { name: 'Pending invitations' }));
    expect(invitations.getByText('new@example.com')).toBeInTheDocument();
    expect(invitations.getByRole('button', { name: 'Resend' })).toBeInTheDocument();
    expect(invitations.getByRole('button', { name: 'Revoke' })).toBeInTheDocument();
  });

  it('lets an admin manage members and viewers but not admins or the owner', async () => {
    team('admin');
    renderApp('/account/team');
    const owner = await row('Olive Owner');
    expect(owner.getByText('Owner')).toBeInTheDocument();
    expect(owner.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    const member = await row('Mia Member');
    expect(member.getByRole('button', { name: /Role of Mia Member/ })).toBeInTheDocument();
    expect(member.getByRole('button', { name: 'Remove' })).toBeInTheDocument();
    expect(member.queryByRole('button', { name: 'Make owner' })).not.toBeInTheDocument();
    expect((await row('Adam Admin')).queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Invite' })).toBeInTheDocument();
  });

  it.each(['member', 'viewer'] as const)('shows a %s the people only, with no controls', async (role) => {
    team(role);
    renderApp('/account/team');
    await row('Olive Owner');
    expect(screen.getAllByTestId('member-row')).toHaveLength(4);
    expect(screen.queryByRole('button', { name: 'Invite' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Role of/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Pending invitations')).not.toBeInTheDocument();
  });

  it('changes a role with a toast', async () => {
    const me = team('owner');
    const { user } = renderApp('/account/team');
    const member = await row('Mia Member');
    await user.click(member.getByRole('button', { name: /Role of Mia Member/ }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Mia Member is now viewer.');
    expect(db.accounts.find((a) => a.name === 'Mia Member')?.orgRole).toBe('viewer');
    expect(me.orgRole).toBe('owner');
  });

  it('invites someone: the owner may pick admin, and the invitation shows up', async () => {
    team('owner');
    const { user } = renderApp('/account/team');
    await user.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.type(dialog.getByRole('textbox', { name: 'Email address' }), 'Pat@Example.com');
    await user.click(dialog.getByRole('button', { name: /Role/ }));
    expect(screen.getByRole('option', { name: 'Admin' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Viewer' }));
    // Free has 2 seats: make room for the test.
    db.plan = { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null };
    await user.click(dialog.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByRole('status')).toHaveTextContent('We emailed an invitation to pat@example.com.');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const invitations = within(await screen.findByRole('list', { name: 'Pending invitations' }));
    expect(await invitations.findByText('pat@example.com')).toBeInTheDocument();
    expect(db.team.invitations[0].orgRole).toBe('viewer');
  });

  it('offers an admin no admin role in the invitation', async () => {
    team('admin');
    const { user } = renderApp('/account/team');
    await user.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.click(dialog.getByRole('button', { name: /Role/ }));
    expect(screen.getByRole('option', { name: 'Member' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it("shows the server's seats message on 402 and keeps the dialog open", async () => {
    team('owner');
    const { user } = renderApp('/account/team');
    await user.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.type(dialog.getByRole('textbox', { name: 'Email address' }), 'pat@example.com');
    await user.click(dialog.getByRole('button', { name: 'Send invitation' }));
    const message = 'The Free plan has room for 2 people, pending invitations included. Upgrade to invite more.';
    // The toast (under the dialog, which hides the rest of the page) and the field both say it.
    expect(await dialog.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('status', { hidden: true })).toHaveTextContent(message);
    expect(db.team.invitations).toHaveLength(0);
  });

  it("shows the server's 409 message for someone already on the team", async () => {
    team('owner');
    db.plan = { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null };
    const { user } = renderApp('/account/team');
    await user.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.type(dialog.getByRole('textbox', { name: 'Email address' }), 'member@example.com');
    await user.click(dialog.getByRole('button', { name: 'Send invitation' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('member@example.com is already a member of your team.');
    expect(screen.getByRole('status', { hidden: true })).toHaveTextContent('Could not invite');
  });

  it('removes someone only after the confirm dialog', async () => {
    team('owner');
    const { user } = renderApp('/account/team');
    const member = await row('Mia Member');
    await user.click(member.getByRole('button', { name: 'Remove' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Remove Mia Member?')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(db.accounts.some((a) => a.name === 'Mia Member')).toBe(true);

    await user.click(member.getByRole('button', { name: 'Remove' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Mia Member no longer has access.');
    expect(db.accounts.some((a) => a.name === 'Mia Member')).toBe(false);
    await waitFor(() => expect(screen.getAllByTestId('member-row')).toHaveLength(3));
  });

  it('transfers ownership after confirming, and the former owner loses the owner controls', async () => {
    team('owner');
    const { user } = renderApp('/account/team');
    const admin = await row('Adam Admin');
    await user.click(admin.getByRole('button', { name: 'Make owner' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Transfer ownership' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Adam Admin is now the owner; you are an admin.');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Make owner' })).not.toBeInTheDocument());
  });

  it('revokes and resends an invitation', async () => {
    team('owner');
    db.plan = { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null };
    db.team.invitations = [
      {
        id: 'inv-1',
        token: 't1',
        email: 'new@example.com',
        orgRole: 'member',
        invitedBy: 'Olive Owner',
        createdAt: '2025-01-01T00:00:00Z',
        expiresAt: '2025-01-08T00:00:00Z',
      },
    ];
    const { user } = renderApp('/account/team');
    const list = within(await screen.findByRole('list', { name: 'Pending invitations' }));
    await user.click(list.getByRole('button', { name: 'Resend' }));
    expect(await screen.findByRole('status')).toHaveTextContent('A new link went to new@example.com.');
    expect(db.team.invitations[0].id).not.toBe('inv-1');
    await user.click(
      await within(await screen.findByRole('list', { name: 'Pending invitations' })).findByRole('button', { name: 'Revoke' }),
    );
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument();
    expect(db.team.invitations).toHaveLength(0);
  });

  it('shows a failed read with a retry', async () => {
    team('owner');
    server.use(http.get('/api/team/members', () => HttpResponse.json({ error: 'internal', message: 'Boom' }, { status: 500 })));
    renderApp('/account/team');
    expect(await screen.findByRole('button', { name: /Try again|Retry/ })).toBeInTheDocument();
  });
});

describe('lastActiveText', () => {
  it('says how long ago, or not yet', () => {
    const now = new Date('2025-01-10T12:00:00Z');
    expect(lastActiveText(null, now)).toBe('Not active yet');
    expect(lastActiveText('2025-01-10T11:00:00Z', now)).toBe('Active about 1 hour ago');
  });
});
