import {
  Description,
  Field as HeadlessField,
  Input as HeadlessInput,
  Label,
  Textarea as HeadlessTextarea,
} from '@headlessui/react';
import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * focus-within, not focus: a date input's calendar button has the focus inside the input, which
 * then matches :focus-within only.
 */
export const inputClasses =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm sm:text-sm ' +
  'placeholder:text-slate-500 focus-within:border-blue-500 focus:outline-none focus-within:ring-2 focus-within:ring-blue-500/30 ' +
  'data-[invalid]:border-red-400 data-[invalid]:focus-within:ring-red-500/30 disabled:bg-slate-50 disabled:text-slate-500';

type FieldProps = {
  label: ReactNode;
  /** Validation message shown under the control. */
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
};

/** Label + control + hint + error, wired together by Headless UI's Field. */
export function Field({ label, error, hint, className, children }: FieldProps) {
  return (
    <HeadlessField className={cn('space-y-1.5', className)}>
      <Label className="block text-sm font-medium text-slate-700">{label}</Label>
      {children}
      {hint ? <Description className="text-xs text-slate-500">{hint}</Description> : null}
      {error ? (
        <Description as="p" className="text-sm text-red-600" role="alert">
          {error}
        </Description>
      ) : null}
    </HeadlessField>
  );
}

export type InputProps = ComponentPropsWithoutRef<'input'> & { invalid?: boolean };

export const Input = forwardRef<HTMLInputElement, InputProps>(function Input({ className, ...props }, ref) {
  return <HeadlessInput ref={ref} className={cn(inputClasses, className)} {...props} />;
});

export type TextareaProps = ComponentPropsWithoutRef<'textarea'> & { invalid?: boolean };

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaProps>(function Textarea({ className, ...props }, ref) {
  return <HeadlessTextarea ref={ref} className={cn(inputClasses, 'min-h-24', className)} {...props} />;
});
