import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it, vi } from 'vitest';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp, renderWithProviders, screen, signInAs, waitFor, within } from '@/testing/test-utils';
import { AppLayout } from './app-layout';

const user = {
  id: 'u1',
  name: 'jane Doe',
  email: 'jane@example.com',
  company: null,
  role: 'user',
  plan: 'free',
  timeZone: 'UTC',
  weeklySummary: true,
  orgRole: 'owner',
  reminderEmails: true,
} as const;

describe('signed-in layout', () => {
  it('renders nothing without a user', () => {
    renderWithProviders(
      <AppLayout user={null} onSignOut={vi.fn()}>
        <p>content</p>
      </AppLayout>,
    );
    expect(screen.queryByText('content')).not.toBeInTheDocument();
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
    expect(screen.queryByTestId('bottom-bar')).not.toBeInTheDocument();
  });

  it('shows the sidebar entries, the initial, the name and Sign out', () => {
    renderWithProviders(
      <AppLayout user={user} onSignOut={vi.fn()}>
        <p>content</p>
      </AppLayout>,
    );
    const sidebar = screen.getByTestId('sidebar');
    const links = within(sidebar)
      .getAllByRole('link')
      .map((l) => [l.textContent, l.getAttribute('href')]);
    expect(links).toEqual([
      ['Vendorwatch', '/dashboard'],
      ['Dashboard', '/dashboard'],
      ['Vendors', '/vendors'],
      ['Documents', '/documents'],
      ['Reminders', '/reminders'],
      ['Activity Log', '/activity'],
      ['Reports', '/reports'],
      ['Billing', '/billing'],
      ['Team', '/account/team'],
      ['Requirements', '/account/requirements'],
      ['Integrations', '/account/integrations'],
    ]);
    expect(within(sidebar).getByTestId('user-avatar')).toHaveTextContent('J');
    expect(within(sidebar).getByText('jane Doe')).toBeInTheDocument();
    expect(within(sidebar).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('has a bottom bar with the plus button to /vendors/new', () => {
    renderWithProviders(
      <AppLayout user={user} onSignOut={vi.fn()}>
        <p>content</p>
      </AppLayout>,
    );
    const bar = screen.getByTestId('bottom-bar');
    const links = within(bar)
      .getAllByRole('link')
      .map((l) => l.getAttribute('href'));
    expect(links).toEqual(['/dashboard', '/vendors', '/vendors/new', '/documents', '/reminders']);
    expect(within(bar).getByRole('link', { name: 'Add New Vendor' })).toHaveAttribute('href', '/vendors/new');
  });

  it("opens the phone menu, which shows the user's email", async () => {
    const { user: events } = renderWithProviders(
      <AppLayout user={user} onSignOut={vi.fn()}>
        <p>content</p>
      </AppLayout>,
    );
    expect(screen.queryByTestId('mobile-menu')).not.toBeInTheDocument();
    await events.click(within(screen.getByTestId('mobile-topbar')).getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByTestId('mobile-menu');
    expect(within(menu).getByText('jane@example.com')).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Activity Log' })).toHaveAttribute('href', '/activity');
    expect(within(menu).getByRole('link', { name: 'Reports' })).toHaveAttribute('href', '/reports');
    expect(within(menu).getByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/billing');
    await events.click(within(menu).getByRole('button', { name: 'Close menu' }));
    await waitFor(() => expect(screen.queryByTestId('mobile-menu')).not.toBeInTheDocument());
  });

  it('signs out: ends the token on the server, clears the session and goes to /', async () => {
    signInAs();
    const token = localStorage.getItem('token') ?? '';
    expect(db.tokens.has(token)).toBe(true);
    const sentWith: (string | null)[] = [];
    server.events.on('request:start', ({ request }) => {
      if (new URL(request.url).pathname === '/api/auth/logout') sentWith.push(request.headers.get('Authorization'));
    });
    const { user: events, router } = renderApp('/dashboard');
    const sidebar = await screen.findByTestId('sidebar');
    await events.click(within(sidebar).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
    expect((await screen.findAllByRole('link', { name: 'Log In' }))[0]).toHaveAttribute('href', '/login');
    expect(sentWith).toEqual([`Bearer ${token}`]);
    expect(db.tokens.has(token)).toBe(false);
  });

  it('signs out on this device even when the server cannot be reached', async () => {
    signInAs();
    server.use(http.post('/api/auth/logout', () => HttpResponse.error()));
    const { user: events, router } = renderApp('/dashboard');
    const sidebar = await screen.findByTestId('sidebar');
    await events.click(within(sidebar).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });
});
