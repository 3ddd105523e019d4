import { useSyncExternalStore } from 'react';
import type { User } from '@/types/api';
import { STORAGE_KEYS } from './storage';

export type SessionStatus = 'loading' | 'ready';

export type Session = {
  /** 'loading' while a stored token is being validated with the server. */
  status: SessionStatus;
  token: string | null;
  user: User | null;
};

function isUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    (typeof record.id === 'string' || typeof record.id === 'number') &&
    typeof record.email === 'string' &&
    typeof record.name === 'string'
  );
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Reads the stored token and user. An unreadable stored user (bad JSON or wrong shape) is
 * discarded, together with the stored user id.
 */
export function readStoredSession(): Pick<Session, 'token' | 'user'> {
  const storage = safeStorage();
  if (!storage) return { token: null, user: null };
  const token = storage.getItem(STORAGE_KEYS.token) || null;
  const raw = storage.getItem(STORAGE_KEYS.user);
  let user: User | null = null;
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isUser(parsed)) user = { ...parsed, id: String(parsed.id) };
    } catch {
      user = null;
    }
    if (!user) {
      storage.removeItem(STORAGE_KEYS.user);
      storage.removeItem(STORAGE_KEYS.userId);
    }
  }
  return { token, user };
}

function initialSession(): Session {
  const { token, user } = readStoredSession();
  return { status: token ? 'loading' : 'ready', token, user: token ? user : null };
}

let session: Session = initialSession();
const listeners = new Set<() => void>();

function emit(next: Session) {
  session = next;
  listeners.forEach((listener) => listener());
}

function writeUser(user: User) {
  const storage = safeStorage();
  storage?.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  storage?.setItem(STORAGE_KEYS.userId, user.id);
}

export const sessionStore = {
  get: (): Session => session,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  /** Stores token and user after login or registration. */
  signIn(token: string, user: User) {
    safeStorage()?.setItem(STORAGE_KEYS.token, token);
    writeUser(user);
    emit({ status: 'ready', token, user });
  },
  /** Replaces the user after the server confirmed the token (or the profile changed). */
  setUser(user: User) {
    writeUser(user);
    emit({ ...session, status: 'ready', user });
  },
  /** Clears token, user and user id. */
  signOut() {
    const storage = safeStorage();
    storage?.removeItem(STORAGE_KEYS.token);
    storage?.removeItem(STORAGE_KEYS.user);
    storage?.removeItem(STORAGE_KEYS.userId);
    emit({ status: 'ready', token: null, user: null });
  },
  /** Re-reads storage: used at start-up and by tests. */
  reload() {
    emit(initialSession());
  },
};

export function useSession(): Session {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
}

export function useUser(): User | null {
  return useSession().user;
}

/** The tenant part of query keys: cached data never leaks from one signed-in user to the next. */
export function sessionScope(): string {
  return session.user?.id ?? 'anonymous';
}
