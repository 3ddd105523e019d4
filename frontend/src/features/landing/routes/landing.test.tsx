import { describe, expect, it } from 'vitest';
import { renderApp, screen, signInAs, within } from '@/testing/test-utils';

describe('landing page', () => {
  it('shows document types, plans and the support contact', async () => {
    renderApp('/');
    // The page's code loads when it is first shown, as every page's does.
    expect(await screen.findByRole('heading', { name: 'W-9' })).toBeInTheDocument();
    for (const name of ['Certificate of Insurance', 'Sales Tax Certificates', 'Vendor Agreements', 'Other']) {
      expect(screen.getByRole('heading', { name })).toBeInTheDocument();
    }
    const free = screen.getByRole('article', { name: 'Free' });
    for (const line of [
      '2 vendor profiles',
      'Up to 10 documents per vendor',
      'Expiration tracking',
      'Automated email reminders',
      'Priority email support',
    ]) {
      expect(within(free).getByText(line)).toBeInTheDocument();
    }
    expect(within(free).getByText('$0')).toBeInTheDocument();
    expect(within(free).getByText('forever')).toBeInTheDocument();
    const pro = screen.getByRole('article', { name: 'Professional' });
    expect(within(pro).getByText('$29')).toBeInTheDocument();
    expect(within(pro).getByText('Up to 25 vendors')).toBeInTheDocument();
    expect(within(pro).getByText('Cancel anytime • No setup fees • Instant activation')).toBeInTheDocument();
    // The support contact is the server's configuration (GET /api/config).
    expect(await screen.findByRole('link', { name: 'help@vendorwatch.test' })).toHaveAttribute(
      'href',
      'mailto:help@vendorwatch.test',
    );
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Log In' })[0]).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  });

  it('offers Go to Dashboard to a signed-in user', async () => {
    signInAs();
    renderApp('/');
    expect((await screen.findAllByRole('link', { name: 'Go to Dashboard' }))[0]).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('link', { name: 'Register' })).not.toBeInTheDocument();
  });
});
