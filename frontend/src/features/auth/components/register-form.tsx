import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { toast } from '@/components/ui/toast';
import { APP_NAME, COMPANY_MAX_LENGTH, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '@/config';
import { ERROR_CODES, errorMessage } from '@/lib/api-error';
import { hasErrors, serverFieldErrors, validateEmail, validateName, validatePassword, type Errors } from '@/lib/validation';
import { useRegister } from '../api/register';

type RegisterField = 'name' | 'email' | 'company' | 'password';
const FIELDS: readonly RegisterField[] = ['name', 'email', 'company', 'password'];

export function RegisterForm() {
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<RegisterField, string>>({ name: '', email: '', company: '', password: '' });
  const [errors, setErrors] = useState<Errors<RegisterField>>({});

  const registerMutation = useRegister({
    onSuccess: (data) => {
      toast({
        title: 'Registration successful',
        description: `Welcome to ${APP_NAME}, ${data.user.name}!`,
        variant: 'success',
      });
      void navigate('/dashboard');
    },
    onError: (error) => {
      const fromServer = serverFieldErrors(FIELDS, error.errors);
      if (error.code === ERROR_CODES.emailTaken && !fromServer.email) fromServer.email = error.message;
      setErrors(fromServer);
      toast({
        title: 'Registration failed',
        description: errorMessage(error, 'Please check your information and try again'),
        variant: 'error',
      });
    },
  });

  const set = (field: RegisterField) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors<RegisterField> = {
      name: validateName(values.name),
      email: validateEmail(values.email),
      password: validatePassword(values.password),
    };
    setErrors(next);
    if (hasErrors(next)) return;
    registerMutation.mutate(values);
  }

  const pending = registerMutation.isPending;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Create account">
      <Field label="Full Name" error={errors.name}>
        <Input
          name="name"
          autoComplete="name"
          maxLength={NAME_MAX_LENGTH}
          placeholder="Jane Doe"
          value={values.name}
          invalid={Boolean(errors.name)}
          onChange={set('name')}
        />
      </Field>
      <Field label="Email address" error={errors.email}>
        <Input
          type="email"
          name="email"
          autoComplete="email"
          maxLength={EMAIL_MAX_LENGTH}
          placeholder="you@company.com"
          value={values.email}
          invalid={Boolean(errors.email)}
          onChange={set('email')}
        />
      </Field>
      <Field label="Company (Optional)" error={errors.company}>
        <Input
          name="company"
          autoComplete="organization"
          maxLength={COMPANY_MAX_LENGTH}
          placeholder="Acme Inc."
          value={values.company}
          onChange={set('company')}
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
          onChange={set('password')}
        />
      </Field>
      <p className="rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-800">
        After creating your account you will go straight to your dashboard.
      </p>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Creating Account...' : 'Create Account'}
      </Button>
    </form>
  );
}
