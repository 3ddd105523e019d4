import { useSearchParams } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { AcceptInvitationForm } from '../components/accept-invitation-form';

export function AcceptInvitationRoute() {
  const [params] = useSearchParams();
  return (
    <AuthLayout title="Join your team" subtitle="Choose your name and a password to accept the invitation.">
      <AcceptInvitationForm token={params.get('token')} />
    </AuthLayout>
  );
}

export default AcceptInvitationRoute;
