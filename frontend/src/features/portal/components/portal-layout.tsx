import type { ReactNode } from 'react';
import { Logo } from '@/components/logo';
import { useSupportEmail } from '@/lib/api/support-email';

/** The public portal's frame: no sign-in, no navigation, built for a phone first. */
export function PortalLayout({ children }: { children: ReactNode }) {
  const supportEmail = useSupportEmail();
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-blue-50 via-white to-white">
      <header className="border-b border-slate-200/70 bg-white/80 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-2xl items-center justify-between gap-3 px-4">
          <Logo />
          <span className="text-xs font-medium text-slate-500 sm:text-sm">Vendor Upload Portal</span>
        </div>
      </header>
      <main className="mx-auto w-full max-w-2xl flex-1 px-4 py-6 sm:py-10">{children}</main>
      <footer className="mx-auto w-full max-w-2xl px-4 pb-8 text-center text-xs text-slate-500">
        Need help? Contact{' '}
        <a href={`mailto:${supportEmail}`} className="font-medium text-blue-600 hover:text-blue-700">
          {supportEmail}
        </a>
      </footer>
    </div>
  );
}
