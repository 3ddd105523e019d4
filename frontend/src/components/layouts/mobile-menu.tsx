import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { XMarkIcon } from '@heroicons/react/24/outline';
import { Logo } from '@/components/logo';
import type { User } from '@/types/api';
import { NavLinks } from './nav-links';
import { accountNavigation, mainNavigation, navigationFor } from './navigation';
import { SignOutButton } from './sign-out-button';
import { UserBadge } from './user-badge';

/** The phone's slide-out menu (./app-layout loads it when first opened). */
export default function MobileMenu({
  open,
  onClose,
  user,
  onSignOut,
}: {
  open: boolean;
  onClose: () => void;
  user: User;
  onSignOut: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50 md:hidden">
      <DialogBackdrop
        transition
        className="fixed inset-0 bg-slate-900/40 transition-opacity duration-200 data-[closed]:opacity-0"
      />
      <div className="fixed inset-0 flex">
        <DialogPanel
          transition
          data-testid="mobile-menu"
          className="relative flex w-full max-w-xs flex-col bg-white shadow-xl transition duration-200 data-[closed]:-translate-x-full"
        >
          <div className="flex h-14 items-center justify-between border-b border-slate-200 px-4">
            <DialogTitle className="sr-only">Menu</DialogTitle>
            <Logo to="/dashboard" />
            <button
              type="button"
              onClick={onClose}
              aria-label="Close menu"
              className="rounded-md p-2 text-slate-500 hover:bg-slate-100"
            >
              <XMarkIcon aria-hidden className="size-6" />
            </button>
          </div>
          <div className="border-b border-slate-200 px-4 py-4">
            <UserBadge name={user.name} email={user.email} showEmail />
          </div>
          <nav aria-label="Mobile" className="flex-1 overflow-y-auto px-3 py-4">
            <NavLinks items={mainNavigation} onNavigate={onClose} />
          </nav>
          <div className="space-y-1 border-t border-slate-200 p-3">
            <nav aria-label="Account">
              <NavLinks items={navigationFor(accountNavigation, user)} onNavigate={onClose} />
            </nav>
            <SignOutButton
              onClick={() => {
                onClose();
                onSignOut();
              }}
            />
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
