import { describe, expect, it } from 'vitest';
import { sessionStore } from '@/lib/session';
import { createAccount, db } from '@/testing/mocks/db';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { INVALID_INVITATION } from './accept-invitation-form';

function invite() {
  createAccount({ name: 'Olive Owner', email: 'owner@example.com', orgRole: 'owner' });
  db.team.organizationName = 'Acme Facilities';
  db.team.invitations = [
    {
      id: 'inv-1',
      token: 'good-invite',
      email: 'pat@example.com',
      orgRole: 'viewer',
      invitedBy: 'Olive Owner',
      createdAt: '2025-01-01T00:00:00Z',
      expiresAt: '2099-01-08T00:00:00Z',
    },
  ];
}

describe('accept invitation page', () => {
  it('says who invited whom, makes the account and lands signed in on the dashboard', async () => {
    invite();
    const { user, router } = renderApp('/accept-invitation?token=good-invite');
    expect(await screen.findByText('Olive Owner invited you to join Acme Facilities as viewer.')).toBeInTheDocument();
    const email = screen.getByRole('textbox', { name: 'Email address' });
    expect(email).toHaveValue('pat@example.com');
    expect(email).toHaveAttribute('readonly');

    await user.click(screen.getByRole('button', { name: 'Join the team' }));
    expect(await screen.findByText(/name/i, { selector: '[role=alert]' })).toBeInTheDocument();
    expect(db.accounts).toHaveLength(1);

    await user.type(screen.getByRole('textbox', { name: 'Full Name' }), 'Pat Viewer');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Join the team' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sessionStore.get().user).toMatchObject({ name: 'Pat Viewer', email: 'pat@example.com', orgRole: 'viewer' });
    expect(db.team.invitations).toHaveLength(0);
  });

  it('says clearly that an unknown, used or expired link does not work', async () => {
    invite();
    renderApp('/accept-invitation?token=spent');
    expect(await screen.findByText(INVALID_INVITATION)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join the team' })).not.toBeInTheDocument();
  });

  it('says the same without a token', async () => {
    renderApp('/accept-invitation');
    expect(await screen.findByText(INVALID_INVITATION)).toBeInTheDocument();
  });
});
