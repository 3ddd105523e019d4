import { HttpResponse, delay } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { createAccount } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

describe('login', () => {
  it('shows the validation messages', async () => {
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
  });

  it('has a show/hide password toggle and the links of the screen', async () => {
    const { user } = renderApp('/login');
    const password = await screen.findByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Register now' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  });

  it("reads 'Signing in...' while submitting, then stores the session and goes to /", async () => {
    createAccount({ email: 'jane@example.com', password: 'secret123' });
    server.use(
      http.post('/api/auth/login', async () => {
        await delay(50);
        return HttpResponse.json({
          token: 'token-x',
          user: {
            id: 'u9',
            name: 'Jane',
            email: 'jane@example.com',
            company: null,
            role: 'user',
            plan: 'free',
            timeZone: 'UTC',
            weeklySummary: true,
            orgRole: 'owner',
            reminderEmails: true,
          },
        });
      }),
    );
    const { user, router } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'jane@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.getByRole('status')).toHaveTextContent('Login successful');
    expect(screen.getByRole('status')).toHaveTextContent('Welcome back!');
    expect(localStorage.getItem('token')).toBe('token-x');
    expect(localStorage.getItem('userId')).toBe('u9');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ email: 'jane@example.com' });
    expect((await screen.findAllByRole('link', { name: 'Go to Dashboard' }))[0]).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('link', { name: 'Log In' })).not.toBeInTheDocument();
  });

  it("shows 'Login failed' with the server's message", async () => {
    const { user, router } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'nobody@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrongpass');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Login failed');
    expect(status).toHaveTextContent('Invalid email or password.');
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });
});
