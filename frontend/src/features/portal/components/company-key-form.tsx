import { KeyIcon } from '@heroicons/react/24/outline';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { ERROR_CODES, NETWORK_ERROR, serverMessage, type ApiError } from '@/lib/api-error';
import type { PortalVendor } from '@/types/api';
import { useValidateCompanyKey } from '../api/validate-company-key';

const KEY_REQUIRED = 'Company key is required';

/**
 * A failed company key check: 'Validation Error' when the check could not be made (network, 5xx,
 * rate limit), otherwise 'Invalid Company Key' with the server's sentence or a fixed one.
 */
function showKeyError(error: ApiError) {
  if (error.code === NETWORK_ERROR || error.status === 0 || error.status >= 500) {
    toast({
      title: 'Validation Error',
      description: 'Unable to connect to the validation service. Please try again later.',
      variant: 'error',
    });
    return;
  }
  if (error.code === ERROR_CODES.rateLimited) {
    // The key may well be right: say why, not that it is invalid.
    toast({ title: 'Validation Error', description: error.message, variant: 'error' });
    return;
  }
  toast({
    title: 'Invalid Company Key',
    description: serverMessage(error) ?? 'Unable to verify company with this key.',
    variant: 'error',
  });
}

type CompanyKeyFormProps = { onVerified: (companyKey: string, vendor: PortalVendor) => void };

/** Step one: the vendor enters the key the client gave them. */
export function CompanyKeyForm({ onVerified }: CompanyKeyFormProps) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [waitSeconds, setWaitSeconds] = useState(0);
  const validate = useValidateCompanyKey();

  // After a 429 the button stays off for the Retry-After the server named.
  useEffect(() => {
    if (waitSeconds <= 0) return;
    const timer = setTimeout(() => setWaitSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [waitSeconds]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) {
      setError(KEY_REQUIRED);
      return;
    }
    setError(undefined);
    validate.mutate(trimmed, {
      onSuccess: (vendor) => onVerified(trimmed, vendor),
      onError: (failure) => {
        if (failure.code === ERROR_CODES.companyKeyRequired) setError(serverMessage(failure) ?? KEY_REQUIRED);
        if (failure.code === ERROR_CODES.rateLimited) setWaitSeconds(failure.retryAfter ?? 0);
        showKeyError(failure);
      },
    });
  }

  const pending = validate.isPending;
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
      <div className="flex flex-col items-center text-center">
        <div className="flex size-12 items-center justify-center rounded-full bg-blue-50 text-blue-600">
          <KeyIcon aria-hidden className="size-6" />
        </div>
        <h1 className="mt-4 text-xl font-bold tracking-tight text-slate-900 sm:text-2xl">Upload your documents</h1>
        <p className="mt-2 text-sm text-slate-600">
          Enter the company key your client gave you to see which documents they need.
        </p>
      </div>
      <form onSubmit={onSubmit} noValidate className="mt-6 space-y-5">
        <Field label="Company Key" error={error}>
          <Input
            name="companyKey"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            invalid={Boolean(error)}
            placeholder="e.g. Ab3dE9xZ"
            autoComplete="off"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            enterKeyHint="go"
            className="h-12 text-center font-mono text-lg! tracking-widest"
          />
        </Field>
        <Button type="submit" size="lg" className="w-full" disabled={pending || waitSeconds > 0}>
          {pending ? (
            <>
              <Spinner className="size-5 text-white" label="Verifying company key" />
              Verifying...
            </>
          ) : (
            'Verify Company Key'
          )}
        </Button>
      </form>
    </div>
  );
}
