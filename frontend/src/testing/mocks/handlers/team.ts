import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import type { OrgRole, TeamMember } from '@/types/api';
import { accountFromRequest, createAccount, db, issueToken, publicUser, type MockAccount } from '../db';
import { apiError, unauthorized } from '../utils';

const RANK: Record<OrgRole, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };
const JOINED_AT = '2025-01-06T09:00:00Z';

function member(account: MockAccount): TeamMember {
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    orgRole: account.orgRole,
    joinedAt: JOINED_AT,
    lastActiveAt: db.team.lastActive.get(account.id) ?? null,
  };
}

const forbidden = (message: string) => apiError(403, 'forbidden_role', message);
const ADMINS_ONLY = 'Only admins and the owner of your team can do this.';

function seats(): number {
  return db.plan.plan === 'professional' ? 10 : 2;
}

/** Who may change or remove whom (docs/product.md, Teams). */
function refuseChange(actor: MockAccount, target: MockAccount) {
  if (RANK[actor.orgRole] < RANK.admin) return forbidden(ADMINS_ONLY);
  if (actor.id === target.id) return apiError(422, 'validation_failed', 'You cannot change your own role or remove yourself.');
  if (target.orgRole === 'owner') return apiError(422, 'validation_failed', 'The owner cannot be changed or removed.');
  if (target.orgRole === 'admin' && actor.orgRole !== 'owner') return forbidden('Only the owner can change or remove an admin.');
  return null;
}

export const teamHandlers = [
  http.get('/api/team/members', ({ request }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    return HttpResponse.json(db.accounts.map(member));
  }),
  http.put('/api/team/members/{id}', async ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    const target = db.accounts.find((a) => a.id === params.id);
    if (!target) return apiError(404, 'not_found', 'No such member.');
    const refused = refuseChange(account, target);
    if (refused) return refused;
    const body = (await request.json()) as { orgRole?: string };
    if (body.orgRole !== 'admin' && body.orgRole !== 'member' && body.orgRole !== 'viewer') {
      return apiError(422, 'validation_failed', 'Choose admin, member or viewer.');
    }
    if (body.orgRole === 'admin' && account.orgRole !== 'owner') return forbidden('Only the owner can make admins.');
    target.orgRole = body.orgRole;
    return HttpResponse.json(member(target));
  }),
  http.delete('/api/team/members/{id}', ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    const target = db.accounts.find((a) => a.id === params.id);
    if (!target) return apiError(404, 'not_found', 'No such member.');
    const refused = refuseChange(account, target);
    if (refused) return refused;
    db.accounts = db.accounts.filter((a) => a.id !== target.id);
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('/api/team/transfer-ownership', async ({ request }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (account.orgRole !== 'owner') return forbidden('Only the owner can hand ownership over.');
    const body = (await request.json()) as { memberId?: string };
    const target = db.accounts.find((a) => a.id === body.memberId && a.id !== account.id);
    if (!target) return apiError(404, 'not_found', 'No such member.');
    target.orgRole = 'owner';
    account.orgRole = 'admin';
    return HttpResponse.json(member(target));
  }),
  http.get('/api/team/invitations', ({ request }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (RANK[account.orgRole] < RANK.admin) return forbidden(ADMINS_ONLY);
    return HttpResponse.json(db.team.invitations.map(({ token: _token, ...invitation }) => invitation));
  }),
  http.post('/api/team/invitations', async ({ request }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (RANK[account.orgRole] < RANK.admin) return forbidden(ADMINS_ONLY);
    const body = (await request.json()) as { email?: string; orgRole?: string };
    const role = body.orgRole as OrgRole;
    const email = (body.email ?? '').trim().toLowerCase();
    if (!email.includes('@'))
      return apiError(422, 'validation_failed', 'Enter a valid email address.', { email: ['Enter a valid email address.'] });
    if (body.orgRole !== 'admin' && body.orgRole !== 'member' && body.orgRole !== 'viewer') {
      return apiError(422, 'validation_failed', 'Choose admin, member or viewer.');
    }
    if (body.orgRole === 'admin' && account.orgRole !== 'owner') return forbidden('Only the owner can invite admins.');
    if (db.accounts.some((a) => a.email.toLowerCase() === email)) {
      return apiError(409, 'already_member', `${email} is already a member of your team.`);
    }
    const others = db.team.invitations.filter((i) => i.email !== email);
    if (db.accounts.length + others.length >= seats()) {
      const plan = db.plan.plan === 'professional' ? 'Professional' : 'Free';
      return apiError(
        402,
        'plan_limit',
        `The ${plan} plan has room for ${seats()} people, pending invitations included. Upgrade to invite more.`,
      );
    }
    const id = `invitation-${db.team.invitations.length + 1}-${Date.now()}`;
    const invitation = {
      id,
      token: `invite-${id}`,
      email,
      orgRole: role,
      invitedBy: account.name,
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    };
    db.team.invitations = [invitation, ...others];
    const { token: _token, ...answer } = invitation;
    return HttpResponse.json(answer, { status: 201 });
  }),
  http.delete('/api/team/invitations/{id}', ({ request, params }) => {
    const account = accountFromRequest(request);
    if (!account) return unauthorized();
    if (RANK[account.orgRole] < RANK.admin) return forbidden(ADMINS_ONLY);
    if (!db.team.invitations.some((i) => i.id === params.id)) return apiError(404, 'not_found', 'No such invitation.');
    db.team.invitations = db.team.invitations.filter((i) => i.id !== params.id);
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('/api/invitations/{token}', ({ params }) => {
    const invitation = db.team.invitations.find((i) => i.token === params.token);
    if (!invitation) return apiError(404, 'invitation_not_found', 'This invitation link is invalid or has expired.');
    return HttpResponse.json({
      organizationName: db.team.organizationName,
      invitedBy: invitation.invitedBy,
      email: invitation.email,
      orgRole: invitation.orgRole,
    });
  }),
  http.post('/api/invitations/{token}/accept', async ({ request, params }) => {
    const invitation = db.team.invitations.find((i) => i.token === params.token);
    if (!invitation) return apiError(404, 'invitation_not_found', 'This invitation link is invalid or has expired.');
    const body = (await request.json()) as { name?: string; password?: string };
    if (db.accounts.some((a) => a.email === invitation.email)) {
      return apiError(409, 'email_taken', 'An account with this email already exists.');
    }
    const account = createAccount({
      id: `user-${db.accounts.length + 1}-${Date.now()}`,
      name: body.name ?? '',
      email: invitation.email,
      password: body.password ?? '',
      orgRole: invitation.orgRole,
    });
    db.team.invitations = db.team.invitations.filter((i) => i.id !== invitation.id);
    return HttpResponse.json({ token: issueToken(account), user: publicUser(account) }, { status: 201 });
  }),
];
