/** Local storage keys: token, user, userId (docs/product.md, "Screens"). */
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
