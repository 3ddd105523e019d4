import { NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from '@/config';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const messages = {
  email: 'Invalid email address',
  password: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  name: `Name must be at least ${NAME_MIN_LENGTH} characters`,
} as const;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

export function validateEmail(value: string): string | undefined {
  return isEmail(value) ? undefined : messages.email;
}

export function validatePassword(value: string): string | undefined {
  return value.length >= PASSWORD_MIN_LENGTH ? undefined : messages.password;
}

export function validateName(value: string): string | undefined {
  return value.trim().length >= NAME_MIN_LENGTH ? undefined : messages.name;
}

export type Errors<K extends string> = Partial<Record<K, string>>;

export function hasErrors<K extends string>(errors: Errors<K>): boolean {
  return Object.values(errors).some(Boolean);
}

/** Merges the server's 422 field errors (first message per field) into form errors. */
export function serverFieldErrors<K extends string>(fields: readonly K[], errors: Record<string, string[]>): Errors<K> {
  const result: Errors<K> = {};
  for (const field of fields) {
    const first = errors[field]?.[0];
    if (first) result[field] = first;
  }
  return result;
}
