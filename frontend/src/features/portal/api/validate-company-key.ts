import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import type { PortalVendor } from '@/types/api';

/**
 * Checks a company key on the public portal. 400 (no key), 404 (unknown key) and 429 (rate
 * limited) arrive as ApiError; a 200 that still says `valid: false` is turned into one too.
 */
export async function validateCompanyKey(key: string): Promise<PortalVendor> {
  const result = await api.get<PortalVendor>('/api/validate-company-key', { params: { key: key.trim() } });
  if (!result?.valid) {
    const message = result?.message ?? '';
    throw new ApiError(
      404,
      'company_key_invalid',
      message || 'Unable to verify company with this key.',
      {},
      {
        fromServer: Boolean(message),
      },
    );
  }
  return result;
}

/** A mutation rather than a query: the vendor asks for the check by pressing a button. */
export function useValidateCompanyKey() {
  return useMutation<PortalVendor, ApiError, string>({ mutationFn: validateCompanyKey });
}
