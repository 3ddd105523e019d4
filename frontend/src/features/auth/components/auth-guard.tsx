import type { ReactNode } from 'react';
import { Navigate, useLocation, useNavigation } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session';

/**
 * Spinner while the session loads, /login without a user, the children otherwise. Signing out
 * goes to / first (useLogout), and the landing page's code may still be loading when the session
 * is cleared: while the router is on its way to another page, a guard left without a user draws
 * nothing instead of sending the user to /login.
 */
export function AuthGuard({ children }: { children: ReactNode }) {
  const { status, user } = useSession();
  const location = useLocation();
  const navigation = useNavigation();
  if (status === 'loading') return <PageSpinner label="Loading session" />;
  if (!user) return navigation.state === 'idle' ? <Navigate to="/login" replace state={{ from: location.pathname }} /> : null;
  return <>{children}</>;
}
