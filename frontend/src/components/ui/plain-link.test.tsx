import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NavigateProvider, PlainLink } from './plain-link';

describe('PlainLink', () => {
  it('navigates through the provider on a plain left click', () => {
    const navigate = vi.fn();
    render(
      <NavigateProvider value={navigate}>
        <PlainLink to="/login">Log In</PlainLink>
      </NavigateProvider>,
    );
    const link = screen.getByRole('link', { name: 'Log In' });
    expect(link).toHaveAttribute('href', '/login');
    expect(fireEvent.click(link)).toBe(false); // the browser's navigation prevented
    expect(navigate).toHaveBeenCalledWith('/login', { replace: false });
  });

  it('replaces the history entry for a link to the current page', () => {
    const navigate = vi.fn();
    render(
      <NavigateProvider value={navigate}>
        <PlainLink to={window.location.pathname}>Home</PlainLink>
      </NavigateProvider>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    expect(navigate).toHaveBeenCalledWith(window.location.pathname, { replace: true });
  });

  it('leaves a click with a modifier key (a new tab) to the browser', () => {
    const navigate = vi.fn();
    let leftToBrowser = false;
    render(
      <NavigateProvider value={navigate}>
        {/* Notes what the link did, then stops the navigation jsdom cannot make. */}
        <div
          onClick={(event) => {
            leftToBrowser = !event.defaultPrevented;
            event.preventDefault();
          }}
        >
          <PlainLink to="/login">Log In</PlainLink>
        </div>
      </NavigateProvider>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Log In' }), { ctrlKey: true });
    expect(leftToBrowser).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
  });
});
