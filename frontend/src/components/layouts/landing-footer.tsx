import { ArrowUpTrayIcon, EnvelopeIcon } from '@heroicons/react/20/solid';
import { Logo } from '@/components/logo';
import { PlainLink } from '@/components/ui/plain-link';
import { APP_NAME } from '@/config';
import { useSupportEmail } from '@/lib/api/support-email';

export function LandingFooter() {
  const supportEmail = useSupportEmail();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-800 bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-3">
        <div className="space-y-3">
          <Logo light />
          <p className="text-sm text-slate-400">Vendor compliance and document tracking for growing businesses.</p>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-white">Support</h2>
          <p className="mt-3 text-sm text-slate-400">Questions about your account or plan? We are here to help.</p>
          <a
            href={`mailto:${supportEmail}`}
            className="mt-3 inline-flex items-center gap-2 text-sm font-medium text-white hover:text-blue-300"
          >
            <EnvelopeIcon aria-hidden className="size-4" />
            {supportEmail}
          </a>
          <PlainLink
            to="/vendor-upload"
            className="mt-2 flex items-center gap-2 text-sm font-medium text-white hover:text-blue-300"
          >
            <ArrowUpTrayIcon aria-hidden className="size-4" />
            Vendor upload portal
          </PlainLink>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-white">Legal</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <a href="#privacy-policy" className="hover:text-white">
                Privacy Policy
              </a>
            </li>
            <li>
              <a href="#terms-of-service" className="hover:text-white">
                Terms of Service
              </a>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-6xl px-4 py-6 text-xs text-slate-400 sm:px-6">
          © {year} {APP_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
