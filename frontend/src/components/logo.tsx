import { APP_NAME } from '@/config';
import { cn } from '@/lib/cn';
import { PlainLink } from './ui/plain-link';

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className={cn('size-8', className)}>
      <rect width="32" height="32" rx="8" fill="#2563eb" />
      <path d="M9 16.5l4.5 4.5L23 11" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The logo, a link (a PlainLink: the landing page shows it too). */
export function Logo({ to = '/', className, light = false }: { to?: string; className?: string; light?: boolean }) {
  return (
    <PlainLink to={to} className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <LogoMark />
      <span className={cn('text-lg', light ? 'text-white' : 'text-slate-900')}>{APP_NAME}</span>
    </PlainLink>
  );
}
