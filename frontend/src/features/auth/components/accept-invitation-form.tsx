import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { LoadingBlock } from '@/components/ui/query-state';
import { toast } from '@/components/ui/toast';
import { APP_NAME, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '@/config';
import { errorMessage } from '@/lib/api-error';
import { ROLE_LABELS } from '@/lib/roles';
import { hasErrors, serverFieldErrors, validateName, validatePassword, type Errors } from '@/lib/validation';
import { useAcceptInvitation } from '../api/accept-invitation';
import { useInvitation } from '../api/get-invitation';

type AcceptField = 'name' | 'password';
const FIELDS: readonly AcceptField[] = ['name', 'password'];

export const INVALID_INVITATION = 'This invitation link is invalid or has expired. Ask whoever invited you to send a new one.';

function InvalidLink() {
  return (
    <div role="alert" className="space-y-4">
      <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">{INVALID_INVITATION}</p>
      <p className="text-sm text-slate-600">
        Already have an account?{' '}
        <Link to="/login" className="font-medium text-blue-700 hover:underline">
          Sign in
        </Link>
      </p>
    </div>
  );
}

/** Shows who invited whom into what, and makes the account with a name and password. */
export function AcceptInvitationForm({ token }: { token: string | null }) {
  const navigate = useNavigate();
  const invitation = useInvitation(token);
  const [values, setValues] = useState<Record<AcceptField, string>>({ name: '', password: '' });
  const [errors, setErrors] = useState<Errors<AcceptField>>({});
  const accept = useAcceptInvitation({
    onSuccess: (data) => {
      toast({ title: 'Welcome aboard', description: `Welcome to ${APP_NAME}, ${data.user.name}!`, variant: 'success' });
      void navigate('/dashboard');
    },
    onError: (error) => {
      setErrors(serverFieldErrors(FIELDS, error.errors));
      toast({ title: 'Could not create your account', description: errorMessage(error, 'Please try again'), variant: 'error' });
    },
  });

  if (!token) return <InvalidLink />;
  if (invitation.isPending) return <LoadingBlock label="Loading invitation" />;
  if (invitation.isError) {
    if (invitation.error.status === 404) return <InvalidLink />;
    return (
      <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
        {errorMessage(invitation.error, 'Could not load the invitation. Please try again.')}
      </p>
    );
  }
  const preview = invitation.data;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors<AcceptField> = { name: validateName(values.name), password: validatePassword(values.password) };
    setErrors(next);
    if (hasErrors(next) || !token) return;
    accept.mutate({ token, ...values });
  }

  const pending = accept.isPending;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Accept invitation">
      <p className="rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-900" data-testid="invitation-summary">
        {preview.invitedBy} invited you to join {preview.organizationName} as {ROLE_LABELS[preview.orgRole].toLowerCase()}.
      </p>
      <Field label="Email address">
        <Input type="email" name="email" value={preview.email} readOnly autoComplete="username" />
      </Field>
      <Field label="Full Name" error={errors.name}>
        <Input
          name="name"
          autoComplete="name"
          maxLength={NAME_MAX_LENGTH}
          placeholder="Jane Doe"
          value={values.name}
          invalid={Boolean(errors.name)}
          onChange={(event) => setValues((v) => ({ ...v, name: event.target.value }))}
        />
      </Field>
      <Field label="Password" error={errors.password}>
        <PasswordInput
          name="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          placeholder="At least 6 characters"
          value={values.password}
          invalid={Boolean(errors.password)}
          onChange={(event) => setValues((v) => ({ ...v, password: event.target.value }))}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={pending} aria-busy={pending || undefined}>
        {pending ? 'Creating Account...' : 'Join the team'}
      </Button>
    </form>
  );
}
