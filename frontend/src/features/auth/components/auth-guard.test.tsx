import { http } from '@/testing/mocks/http';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { sessionStore } from '@/lib/session';
import { act, renderApp, renderRouter, screen, signInAs, waitFor } from '@/testing/test-utils';
import { AuthGuard } from './auth-guard';

describe('auth guard and session', () => {
  it('redirects to /login when nobody is signed in', async () => {
    const { router } = renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('shows a spinner while a stored token is validated, then the page', async () => {
    signInAs({ name: 'Jane Doe' });
    sessionStore.reload(); // as on a fresh page load: token stored, not yet validated
    expect(sessionStore.get().status).toBe('loading');
    // The server answers once the spinner was seen: the signed-in layout and the page load
    // lazily, and may take longer than any fixed delay.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/auth/me', async () => {
        await answered; // then falls through to the default handler
      }),
    );
    renderApp('/dashboard');
    expect(await screen.findByTestId('page-spinner')).toBeInTheDocument();
    answer();
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('View and manage vendor compliance documents')).toBeInTheDocument();
    expect(screen.queryByTestId('page-spinner')).not.toBeInTheDocument();
  });

  it("logs out with 'Session expired' when the token is refused", async () => {
    localStorage.setItem('token', 'stale-token');
    localStorage.setItem('user', JSON.stringify({ id: 'u1', name: 'Old', email: 'old@example.com', role: 'user', plan: 'free' }));
    localStorage.setItem('userId', 'u1');
    sessionStore.reload();
    const { router } = renderApp('/dashboard');
    expect(await screen.findByRole('status')).toHaveTextContent('Session expired');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
  });

  it('refreshes the stored user from /api/auth/me', async () => {
    signInAs({ name: 'Fresh Name' });
    const stored = JSON.parse(localStorage.getItem('user') ?? '{}') as Record<string, unknown>;
    localStorage.setItem('user', JSON.stringify({ ...stored, name: 'Stale Name' }));
    sessionStore.reload();
    renderApp('/dashboard');
    expect(await screen.findAllByText('Fresh Name')).not.toHaveLength(0);
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ name: 'Fresh Name' });
  });

  it('leaves a user who signs out on the way to another page on that way, not at /login', async () => {
    signInAs();
    // The page being gone to (the landing page, when signing out) is still loading its code.
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const router = createMemoryRouter(
      [
        { path: '/', lazy: async () => (await arrived, { Component: () => <p>Landing</p> }) },
        { path: '/private', element: <AuthGuard>Private</AuthGuard> },
        { path: '/login', element: <p>Login</p> },
      ],
      { initialEntries: ['/private'] },
    );
    renderRouter(router);
    expect(await screen.findByText('Private')).toBeInTheDocument();
    act(() => void router.navigate('/'));
    await waitFor(() => expect(router.state.navigation.state).toBe('loading'));
    act(() => sessionStore.signOut());
    expect(screen.queryByText('Private')).not.toBeInTheDocument();
    arrive();
    expect(await screen.findByText('Landing')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});
