/** Browser storage keys of SPEC section 3 ("Stored browser values"). */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  userId: 'userId',
} as const;

export function getStoredToken(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.token);
  } catch {
    return null;
  }
}
