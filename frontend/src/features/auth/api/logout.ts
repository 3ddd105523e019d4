import { api } from '@/lib/api-client';

/** How long Sign out waits for the server before signing out locally anyway. */
export const LOGOUT_TIMEOUT_MS = 5000;

/**
 * Ends the stored token on the server (POST /api/auth/logout, 204), so that a copy of it stops
 * working too. Never throws: an unreachable server, a token already ended (401) or a slow answer
 * must not keep anyone signed in on this device.
 */
export async function logoutOnServer(): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), LOGOUT_TIMEOUT_MS);
  try {
    await api.post<void>('/api/auth/logout', undefined, { signal: controller.signal });
  } catch {
    // Signed out locally all the same (useLogout).
  } finally {
    clearTimeout(timer);
  }
}
