import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import type { PortalVendor } from '@/types/api';

/**
 * Checks a company key on the public portal. 400 (no key), 404 (unknown key) and 429 (rate
 * limited) arrive as ApiError (the refusal's envelope carries `valid: false`); a 200 never
 * says `valid: false`, but one that did would be refused the same way.
 */
export async function validateCompanyKey(key: string): Promise<PortalVendor> {
  const result = await api.get<PortalVendor>('/api/validate-company-key', { params: { key: key.trim() } });
  if (!result?.valid) {
    throw new ApiError(404, 'company_key_invalid', 'Unable to verify company with this key.', {}, { fromServer: false });
  }
  return result;
}

/** A mutation rather than a query: the vendor asks for the check by pressing a button. */
export function useValidateCompanyKey() {
  return useMutation<PortalVendor, ApiError, string>({ mutationFn: validateCompanyKey });
}
