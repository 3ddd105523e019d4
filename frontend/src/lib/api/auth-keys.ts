/** Keys of the signed-in user's read (get-me), which several features update. */
export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};
