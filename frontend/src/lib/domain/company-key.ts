import { COMPANY_KEY_LENGTH } from '@/config';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * An 8-character alphanumeric company key from the browser's secure generator. Rejection
 * sampling keeps every character equally likely.
 */
export function generateCompanyKey(length = COMPANY_KEY_LENGTH): string {
  const limit = 256 - (256 % ALPHABET.length);
  let key = '';
  while (key.length < length) {
    const bytes = new Uint8Array(length * 2);
    crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte < limit && key.length < length) key += ALPHABET[byte % ALPHABET.length];
    }
  }
  return key;
}

export const COMPANY_KEY_PATTERN = /^[A-Za-z0-9]{8}$/;
