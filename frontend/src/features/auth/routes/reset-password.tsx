import { useSearchParams } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { ResetPasswordForm } from '../components/reset-password-form';

export function ResetPasswordRoute() {
  const [params] = useSearchParams();
  return (
    <AuthLayout title="Choose a new password" subtitle="Your new password must be at least 6 characters.">
      <ResetPasswordForm token={params.get('token')} />
    </AuthLayout>
  );
}

export default ResetPasswordRoute;
