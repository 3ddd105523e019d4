import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { toast } from '@/components/ui/toast';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '@/config';
import { errorMessage } from '@/lib/api-error';
import { hasErrors, validateEmail, validatePassword, type Errors } from '@/lib/validation';
import { useLogin } from '../api/login';

type LoginField = 'email' | 'password';

export function LoginForm() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors<LoginField>>({});

  const loginMutation = useLogin({
    onSuccess: () => {
      toast({ title: 'Login successful', description: 'Welcome back!', variant: 'success' });
      void navigate('/');
    },
    onError: (error) => {
      toast({
        title: 'Login failed',
        description: errorMessage(error, 'Please check your credentials and try again'),
        variant: 'error',
      });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors<LoginField> = { email: validateEmail(email), password: validatePassword(password) };
    setErrors(next);
    if (hasErrors(next)) return;
    loginMutation.mutate({ email, password });
  }

  const pending = loginMutation.isPending;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Sign in">
      <Field label="Email" error={errors.email}>
        <Input
          type="email"
          name="email"
          autoComplete="email"
          maxLength={EMAIL_MAX_LENGTH}
          placeholder="you@company.com"
          value={email}
          invalid={Boolean(errors.email)}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      <Field label="Password" error={errors.password}>
        <PasswordInput
          name="password"
          autoComplete="current-password"
          maxLength={PASSWORD_MAX_LENGTH}
          placeholder="••••••••"
          value={password}
          invalid={Boolean(errors.password)}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <div className="flex justify-end">
        <Link to="/forgot-password" className="text-sm font-medium text-blue-600 hover:text-blue-700">
          Forgot password?
        </Link>
      </div>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}
