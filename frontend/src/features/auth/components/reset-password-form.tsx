import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { toast } from '@/components/ui/toast';
import { ERROR_CODES, errorMessage } from '@/lib/api-error';
import { validatePassword } from '@/lib/validation';
import { useResetPassword } from '../api/reset-password';

export function ResetPasswordForm({ token }: { token: string | null }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const mutation = useResetPassword();

  if (!token) {
    return (
      <div className="space-y-4 text-center text-sm text-slate-700">
        <p role="alert">This password reset link is incomplete. Please request a new one.</p>
        <Link to="/forgot-password" className="font-medium text-blue-600 hover:text-blue-700">
          Request a new link
        </Link>
      </div>
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validatePassword(password);
    setError(invalid);
    if (invalid || !token) return;
    mutation.mutate(
      { token, password },
      {
        onSuccess: () => {
          toast({ title: 'Password updated', variant: 'success' });
          void navigate('/login');
        },
        onError: (e) => {
          if (e.code === ERROR_CODES.validationFailed) {
            setError(e.fieldError('password') ?? e.message);
            return;
          }
          toast({ title: 'Password reset failed', description: errorMessage(e, 'Please try again later.'), variant: 'error' });
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Choose a new password">
      <Field label="New password" error={error}>
        <PasswordInput
          name="password"
          autoComplete="new-password"
          placeholder="At least 6 characters"
          value={password}
          invalid={Boolean(error)}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? 'Saving...' : 'Update password'}
      </Button>
    </form>
  );
}
