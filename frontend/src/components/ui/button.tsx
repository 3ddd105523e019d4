import { Button as HeadlessButton, type ButtonProps as HeadlessButtonProps } from '@headlessui/react';
import { forwardRef, type ComponentProps } from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/cn';
import { buttonClasses, type ButtonSize, type ButtonVariant } from './button-styles';

export { buttonClasses, FOCUS_ON_BLUE, type ButtonSize, type ButtonVariant } from './button-styles';

export type ButtonProps = HeadlessButtonProps & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
};

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', size = 'md', className, type = 'button', ...props },
  ref,
) {
  return <HeadlessButton ref={ref} type={type} className={buttonClasses(variant, size, className)} {...props} />;
});

export type ButtonLinkProps = ComponentProps<typeof Link> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Renders a non-interactive, visibly disabled link. */
  disabled?: boolean;
};

export function ButtonLink({ variant = 'primary', size = 'md', className, disabled, onClick, ...props }: ButtonLinkProps) {
  return (
    <Link
      {...props}
      aria-disabled={disabled || undefined}
      tabIndex={disabled ? -1 : props.tabIndex}
      onClick={(event) => {
        if (disabled) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
      className={buttonClasses(
        variant,
        size,
        cn(disabled && 'pointer-events-none', typeof className === 'string' ? className : undefined),
      )}
    />
  );
}
