import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { StandaloneLanding } from './standalone-landing';

describe('standalone landing page (a first-time visitor, before the app has loaded)', () => {
  it('shows the page and its server-configured support contact without the router or the query client', async () => {
    render(<StandaloneLanding onLeave={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'Never chase an expired vendor certificate again' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'help@vendorwatch.test' })).toHaveAttribute(
      'href',
      'mailto:help@vendorwatch.test',
    );
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  });

  it('hands over to the app when a link to another page is followed', async () => {
    const onLeave = vi.fn();
    const user = userEvent.setup();
    render(<StandaloneLanding onLeave={onLeave} />);
    await user.click(screen.getByRole('link', { name: 'Start free' }));
    expect(onLeave).toHaveBeenCalledWith('/register');
    await user.click(screen.getByRole('link', { name: 'Vendor upload portal' }));
    expect(onLeave).toHaveBeenLastCalledWith('/vendor-upload');
  });

  it('stays put when the logo, a link to this page, is followed', async () => {
    const onLeave = vi.fn();
    const user = userEvent.setup();
    render(<StandaloneLanding onLeave={onLeave} />);
    await user.click(screen.getAllByRole('link', { name: 'Vendorwatch' })[0]);
    expect(onLeave).not.toHaveBeenCalled();
  });
});
