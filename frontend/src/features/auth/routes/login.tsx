import { Link } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { LoginForm } from '../components/login-form';

export function LoginRoute() {
  return (
    <AuthLayout
      title="Sign in to your account"
      subtitle="Track vendor documents, expirations and renewals in one place."
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link to="/register" className="font-medium text-blue-600 hover:text-blue-700">
            Register now
          </Link>
        </>
      }
    >
      <LoginForm />
    </AuthLayout>
  );
}

export default LoginRoute;
