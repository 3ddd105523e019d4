import { Logo } from '@/components/logo';
import { PlainButtonLink } from '@/components/ui/plain-link';
import { useSession } from '@/lib/session';

export function LandingHeader() {
  const { user, status } = useSession();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/80 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Primary" className="hidden items-center gap-8 text-sm font-medium text-slate-600 lg:flex">
          <a href="#documents" className="hover:text-slate-900">
            Documents
          </a>
          <a href="#features" className="hover:text-slate-900">
            Features
          </a>
          <a href="#pricing" className="hover:text-slate-900">
            Pricing
          </a>
        </nav>
        <div className="flex items-center gap-2">
          {user ? (
            <PlainButtonLink to="/dashboard" size="sm">
              Go to Dashboard
            </PlainButtonLink>
          ) : status === 'ready' ? (
            <>
              <PlainButtonLink to="/login" variant="ghost" size="sm">
                Log In
              </PlainButtonLink>
              <PlainButtonLink to="/register" size="sm">
                Register
              </PlainButtonLink>
            </>
          ) : null}
        </div>
      </div>
    </header>
  );
}
