import { Link } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { RegisterForm } from '../components/register-form';

export function RegisterRoute() {
  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start tracking vendor compliance for free."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-blue-600 hover:text-blue-700">
            Sign in
          </Link>
        </>
      }
    >
      <RegisterForm />
    </AuthLayout>
  );
}

export default RegisterRoute;
