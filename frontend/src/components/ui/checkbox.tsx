import { forwardRef, useEffect, useImperativeHandle, useRef, type ComponentPropsWithoutRef } from 'react';
import { cn } from '@/lib/cn';

type CheckboxProps = Omit<ComponentPropsWithoutRef<'input'>, 'type'> & {
  /** Some but not all of what it stands for is checked (a header checkbox). */
  indeterminate?: boolean;
};

/** A native checkbox (keyboard and screen readers for free), styled; `aria-label` names it. */
export const Checkbox = forwardRef<HTMLInputElement, CheckboxProps>(function Checkbox(
  { indeterminate = false, className, ...props },
  ref,
) {
  const inner = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => inner.current as HTMLInputElement);
  useEffect(() => {
    if (inner.current) inner.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <input
      ref={inner}
      type="checkbox"
      className={cn(
        'size-4 shrink-0 cursor-pointer rounded border-slate-300 text-blue-600 accent-blue-600',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
        className,
      )}
      {...props}
    />
  );
});
