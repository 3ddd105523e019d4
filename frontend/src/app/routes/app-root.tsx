import { Outlet } from 'react-router';
import { AppLayout } from '@/components/layouts/app-layout';
import { AuthGuard } from '@/features/auth/components/auth-guard';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { useUser } from '@/lib/session';

/** Every signed-in page: the auth guard, then the signed-in layout around the page. */
export function AppRoot() {
  return (
    <AuthGuard>
      <SignedInShell />
    </AuthGuard>
  );
}

function SignedInShell() {
  const user = useUser();
  const logout = useLogout();
  return (
    <AppLayout user={user} onSignOut={() => void logout()}>
      <Outlet />
    </AppLayout>
  );
}

export default AppRoot;
