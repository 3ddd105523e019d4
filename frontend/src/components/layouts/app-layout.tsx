import { Bars3Icon, PlusIcon } from '@heroicons/react/24/outline';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { Logo } from '@/components/logo';
import { cn } from '@/lib/cn';
import type { User } from '@/types/api';
import { NavLinks } from './nav-links';
import { accountNavigation, bottomNavigation, mainNavigation, navigationFor, type NavItem } from './navigation';
import { SignOutButton } from './sign-out-button';
import { canWrite } from '@/lib/permissions';
import { UserBadge } from './user-badge';

// Loaded when first opened: its dialog code (Headless UI's Dialog, transitions, focus trap) is
// not part of every signed-in page's first load.
const MobileMenu = lazy(() => import('./mobile-menu'));

type AppLayoutProps = {
  user: User | null;
  onSignOut: () => void;
  children: ReactNode;
};

function Sidebar({ user, onSignOut }: { user: User; onSignOut: () => void }) {
  return (
    <aside
      data-testid="sidebar"
      data-print="hide"
      className="fixed inset-y-0 left-0 z-30 hidden w-64 flex-col border-r border-slate-200 bg-white md:flex"
    >
      <div className="flex h-16 items-center px-6">
        <Logo to="/dashboard" />
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <NavLinks items={mainNavigation} />
      </nav>
      <div className="space-y-2 border-t border-slate-200 p-4">
        <UserBadge name={user.name} email={user.email} />
        <nav aria-label="Account">
          <NavLinks items={navigationFor(accountNavigation, user)} />
        </nav>
        <SignOutButton onClick={onSignOut} />
      </div>
    </aside>
  );
}

function BottomLink({ item }: { item: NavItem }) {
  const Icon = item.icon;
  return (
    <NavLink
      to={item.to}
      className={({ isActive }) =>
        cn(
          'flex flex-1 flex-col items-center gap-0.5 py-2 text-[11px] font-medium',
          isActive ? 'text-blue-600' : 'text-slate-500',
        )
      }
    >
      <Icon aria-hidden className="size-6" />
      {item.name}
    </NavLink>
  );
}

function BottomBar({ canAdd }: { canAdd: boolean }) {
  return (
    <nav
      aria-label="Bottom"
      data-testid="bottom-bar"
      data-print="hide"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <div className="flex items-center">
        {bottomNavigation.left.map((item) => (
          <BottomLink key={item.to} item={item} />
        ))}
        <div className="flex flex-1 justify-center">
          {canAdd ? (
            <Link
              to="/vendors/new"
              aria-label="Add New Vendor"
              data-testid="bottom-bar-add"
              className="-mt-6 flex size-14 items-center justify-center rounded-full bg-blue-600 text-white shadow-lg ring-4 ring-white hover:bg-blue-700"
            >
              <PlusIcon aria-hidden className="size-7" />
            </Link>
          ) : null}
        </div>
        {bottomNavigation.right.map((item) => (
          <BottomLink key={item.to} item={item} />
        ))}
      </div>
    </nav>
  );
}

/** The signed-in shell: sidebar on desktop, top bar + slide-out menu + bottom bar on phones. */
export function AppLayout({ user, onSignOut, children }: AppLayoutProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);
  if (!user) return null;
  return (
    <div data-print="page" className="min-h-dvh bg-slate-50">
      <Sidebar user={user} onSignOut={onSignOut} />
      <header
        data-testid="mobile-topbar"
        data-print="hide"
        className="fixed inset-x-0 top-0 z-30 flex h-14 items-center justify-between border-b border-slate-200 bg-white/95 px-4 backdrop-blur md:hidden"
      >
        <Logo to="/dashboard" />
        <button
          type="button"
          onClick={() => {
            setMenuLoaded(true);
            setMenuOpen(true);
          }}
          aria-label="Open menu"
          className="rounded-md p-2 text-slate-600 hover:bg-slate-100"
        >
          <Bars3Icon aria-hidden className="size-6" />
        </button>
      </header>
      {menuLoaded ? (
        <Suspense fallback={null}>
          <MobileMenu open={menuOpen} onClose={() => setMenuOpen(false)} user={user} onSignOut={onSignOut} />
        </Suspense>
      ) : null}
      <main data-print="main" className="px-4 pt-20 pb-28 sm:px-6 md:pt-8 md:pb-10 md:pl-72 lg:pr-10">
        <div className="mx-auto max-w-7xl">{children}</div>
      </main>
      <BottomBar canAdd={canWrite(user)} />
    </div>
  );
}
