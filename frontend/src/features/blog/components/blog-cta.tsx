import { ButtonLink, FOCUS_ON_BLUE } from '@/components/ui/button';
import { useSession } from '@/lib/session';

/** Under a post: register or log in, or Go to Dashboard for a signed-in reader. */
export function BlogCallToAction() {
  const { user, status } = useSession();
  return (
    <aside aria-label="Get started" className="rounded-2xl bg-blue-600 px-6 py-8 text-center text-white sm:px-10">
      <h2 className="text-xl font-semibold sm:text-2xl">Keep every vendor document current</h2>
      <p className="mx-auto mt-2 max-w-xl text-sm text-blue-50 sm:text-base">
        Track W-9s, certificates of insurance and agreements, and get reminded before anything expires.
      </p>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        {user ? (
          <ButtonLink to="/dashboard" variant="outline" size="lg" className={FOCUS_ON_BLUE}>
            Go to Dashboard
          </ButtonLink>
        ) : status === 'ready' ? (
          <>
            <ButtonLink to="/register" variant="outline" size="lg" className={FOCUS_ON_BLUE}>
              Register
            </ButtonLink>
            <ButtonLink to="/login" variant="secondary" size="lg" className={FOCUS_ON_BLUE}>
              Log In
            </ButtonLink>
          </>
        ) : null}
      </div>
    </aside>
  );
}
