import { Logo } from '@/components/logo';
import { ButtonLink } from '@/components/ui/button';
import { useSession } from '@/lib/session';
import { Link } from 'react-router';

/** The public blog's top bar: the logo, the blog link, and Log In / Register or Go to Dashboard. */
export function BlogHeader() {
  const { user, status } = useSession();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/80 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-3 px-4 sm:px-6">
        <div className="flex min-w-0 items-center gap-4">
          <Logo />
          <Link to="/blog" className="text-sm font-medium text-slate-600 hover:text-slate-900">
            Blog
          </Link>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {user ? (
            <ButtonLink to="/dashboard" size="sm">
              Go to Dashboard
            </ButtonLink>
          ) : status === 'ready' ? (
            <>
              <ButtonLink to="/login" variant="ghost" size="sm" className="hidden sm:inline-flex">
                Log In
              </ButtonLink>
              <ButtonLink to="/register" size="sm">
                Register
              </ButtonLink>
            </>
          ) : null}
        </div>
      </div>
    </header>
  );
}
