import { CheckCircleIcon } from '@heroicons/react/24/outline';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { EMAIL_MAX_LENGTH } from '@/config';
import { errorMessage } from '@/lib/api-error';
import { validateEmail } from '@/lib/validation';
import { useForgotPassword } from '../api/forgot-password';

export const FORGOT_PASSWORD_SENT = 'If an account exists for that email, we sent a link to reset your password.';

export function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const mutation = useForgotPassword();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validateEmail(email);
    setError(invalid);
    if (invalid) return;
    mutation.mutate(email, {
      onError: (e) =>
        toast({ title: 'Request failed', description: errorMessage(e, 'Please try again later.'), variant: 'error' }),
    });
  }

  if (mutation.isSuccess) {
    return (
      <div className="space-y-4 text-center">
        <CheckCircleIcon aria-hidden className="mx-auto size-10 text-emerald-500" />
        <p className="text-sm text-slate-700" role="status">
          {FORGOT_PASSWORD_SENT}
        </p>
        <Link to="/login" className="inline-block text-sm font-medium text-blue-600 hover:text-blue-700">
          Back to sign in
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Reset password request">
      <Field label="Email" error={error}>
        <Input
          type="email"
          name="email"
          autoComplete="email"
          maxLength={EMAIL_MAX_LENGTH}
          placeholder="you@company.com"
          value={email}
          invalid={Boolean(error)}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? 'Sending...' : 'Send reset link'}
      </Button>
    </form>
  );
}
