import { describe, expect, it } from 'vitest';
import { readStoredSession, sessionStore } from './session';

const user = {
  id: 'u1',
  name: 'Jane',
  email: 'jane@example.com',
  company: null,
  role: 'user',
  plan: 'free',
  timeZone: 'UTC',
  weeklySummary: true,
  orgRole: 'owner',
  reminderEmails: true,
} as const;

describe('session store', () => {
  it('discards an unreadable stored user', () => {
    localStorage.setItem('token', 't1');
    localStorage.setItem('user', '{not json');
    localStorage.setItem('userId', 'u1');
    expect(readStoredSession()).toEqual({ token: 't1', user: null });
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
    expect(localStorage.getItem('token')).toBe('t1');
  });

  it('discards a stored user of the wrong shape', () => {
    localStorage.setItem('user', JSON.stringify({ hello: 'world' }));
    expect(readStoredSession().user).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('reads a stored token and user', () => {
    localStorage.setItem('token', 't1');
    localStorage.setItem('user', JSON.stringify(user));
    expect(readStoredSession()).toEqual({ token: 't1', user });
  });

  it('starts loading when a token is stored, ready without one', () => {
    sessionStore.reload();
    expect(sessionStore.get()).toEqual({ status: 'ready', token: null, user: null });
    localStorage.setItem('token', 't1');
    sessionStore.reload();
    expect(sessionStore.get().status).toBe('loading');
  });

  it('stores token, user and userId on sign-in and clears them on sign-out', () => {
    sessionStore.signIn('t2', user);
    expect(localStorage.getItem('token')).toBe('t2');
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(user);
    expect(localStorage.getItem('userId')).toBe('u1');
    expect(sessionStore.get()).toEqual({ status: 'ready', token: 't2', user });

    sessionStore.signOut();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
    expect(sessionStore.get().user).toBeNull();
  });
});
