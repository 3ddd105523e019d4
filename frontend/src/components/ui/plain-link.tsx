import { createContext, useContext, type ComponentProps, type MouseEvent } from 'react';
import { buttonClasses, type ButtonSize, type ButtonVariant } from './button-styles';

type Navigate = (to: string, options?: { replace?: boolean }) => void;

const NavigateContext = createContext<Navigate>((to) => window.location.assign(to));

/**
 * How the PlainLinks below go to a page: the app passes its router's navigate; the landing page a
 * first-time visitor gets (src/main.tsx) starts the app. Without one, a full page load.
 */
export const NavigateProvider = NavigateContext.Provider;

export type PlainLinkProps = Omit<ComponentProps<'a'>, 'href'> & { to: string };

function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>) {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/**
 * A link to a page of the app, as a plain anchor that does not need React Router (whose bundle a
 * first-time visitor's landing page goes without). A plain left click goes through the
 * NavigateProvider; a click with a modifier key (new tab, new window) is left to the browser.
 */
export function PlainLink({ to, onClick, ...props }: PlainLinkProps) {
  const navigate = useContext(NavigateContext);
  return (
    <a
      {...props}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || !isPlainLeftClick(event) || (props.target && props.target !== '_self')) return;
        event.preventDefault();
        // As React Router's Link: the current page again replaces its history entry.
        const here = window.location.pathname + window.location.search + window.location.hash;
        navigate(to, { replace: to === here });
      }}
    />
  );
}

export type PlainButtonLinkProps = PlainLinkProps & {
  variant?: ButtonVariant;
  size?: ButtonSize;
};

/** A PlainLink drawn as a button (ButtonLink, from ./button, is the router's). */
export function PlainButtonLink({ variant = 'primary', size = 'md', className, ...props }: PlainButtonLinkProps) {
  return <PlainLink {...props} className={buttonClasses(variant, size, className)} />;
}
