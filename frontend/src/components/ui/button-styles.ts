import { cn } from '@/lib/cn';

/*
 * The look of buttons and of links drawn as buttons. Apart from ./button (Headless UI, React
 * Router) so that the landing page, which a first-time visitor loads without either, can use it.
 */

export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon' | 'icon-sm';

const base =
  'inline-flex items-center justify-center gap-2 rounded-lg font-medium whitespace-nowrap transition-colors [&_svg]:shrink-0 ' +
  // No focus:outline-none here: with Tailwind 4 it sets --tw-outline-style to none, and the
  // outlines below would then draw nothing.
  'data-[focus]:outline-2 data-[focus]:outline-offset-2 data-[focus]:outline-blue-600 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ' +
  'disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-blue-600 text-white shadow-sm hover:bg-blue-700 data-[hover]:bg-blue-700 data-[disabled]:bg-blue-600',
  secondary: 'bg-slate-900 text-white shadow-sm hover:bg-slate-800 data-[hover]:bg-slate-800',
  outline: 'border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-50 data-[hover]:bg-slate-50',
  ghost: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 data-[hover]:bg-slate-100',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700 data-[hover]:bg-red-700',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'size-9',
  /** Compact icon buttons (table row actions). A size here, not a className: classes do not override each other. */
  'icon-sm': 'size-8',
};

/** Buttons on a blue background: a white focus outline, where the blue one would not show. */
export const FOCUS_ON_BLUE = 'focus-visible:outline-white! data-[focus]:outline-white!';

export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string) {
  return cn(base, variants[variant], sizes[size], className);
}
