import { HttpResponse, delay } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { createAccount } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

async function fill(
  user: ReturnType<typeof renderApp>['user'],
  values: { name: string; email: string; password: string; company?: string },
) {
  await user.type(await screen.findByLabelText('Full Name'), values.name);
  await user.type(screen.getByLabelText('Email address'), values.email);
  if (values.company) await user.type(screen.getByLabelText('Company (Optional)'), values.company);
  await user.type(screen.getByLabelText('Password'), values.password);
}

describe('register', () => {
  it('shows the validation messages', async () => {
    const { user } = renderApp('/register');
    await user.type(await screen.findByLabelText('Full Name'), 'J');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
  });

  it("bounds each field at the server's limit", async () => {
    renderApp('/register');
    expect(await screen.findByLabelText('Full Name')).toHaveAttribute('maxLength', '100');
    expect(screen.getByLabelText('Email address')).toHaveAttribute('maxLength', '254');
    expect(screen.getByLabelText('Company (Optional)')).toHaveAttribute('maxLength', '100');
    expect(screen.getByLabelText('Password')).toHaveAttribute('maxLength', '128');
  });

  it('says where the user goes and links to sign in', async () => {
    renderApp('/register');
    expect(await screen.findByText(/go straight to your dashboard/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it("reads 'Creating Account...' while submitting, then goes to /dashboard", async () => {
    let body: unknown;
    server.use(
      http.post('/api/auth/register', async ({ request }) => {
        body = await request.json();
        await delay(50);
        return HttpResponse.json(
          {
            token: 't-new',
            user: {
              id: 'u1',
              name: 'Jane Doe',
              email: 'jane@example.com',
              company: 'Acme',
              role: 'user',
              plan: 'free',
              timeZone: 'UTC',
              weeklySummary: true,
              orgRole: 'owner',
              reminderEmails: true,
            },
          },
          { status: 201 },
        );
      }),
      http.get('/api/auth/me', () =>
        HttpResponse.json({
          id: 'u1',
          name: 'Jane Doe',
          email: 'jane@example.com',
          company: 'Acme',
          role: 'user',
          plan: 'free',
          timeZone: 'UTC',
          weeklySummary: true,
          orgRole: 'owner',
          reminderEmails: true,
        }),
      ),
    );
    const { user, router } = renderApp('/register');
    await fill(user, { name: 'Jane Doe', email: 'jane@example.com', password: 'secret123', company: 'Acme' });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('button', { name: 'Creating Account...' })).toBeDisabled();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(body).toEqual({
      name: 'Jane Doe',
      email: 'jane@example.com',
      password: 'secret123',
      company: 'Acme',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(screen.getByRole('status')).toHaveTextContent('Registration successful');
    expect(localStorage.getItem('token')).toBe('t-new');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });

  it("shows 'Registration failed' and the server's field errors", async () => {
    server.use(
      http.post('/api/auth/register', () =>
        HttpResponse.json(
          { error: 'validation_failed', message: 'Some fields are invalid.', errors: { name: ['Name is too long'] } },
          { status: 422 },
        ),
      ),
    );
    const { user } = renderApp('/register');
    await fill(user, { name: 'Jane Doe', email: 'jane@example.com', password: 'secret123' });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Registration failed');
    expect(status).toHaveTextContent('Some fields are invalid.');
    expect(screen.getByText('Name is too long')).toBeInTheDocument();
  });

  it('shows a taken email under the email field', async () => {
    createAccount({ email: 'taken@example.com' });
    const { user } = renderApp('/register');
    await fill(user, { name: 'Jane Doe', email: 'taken@example.com', password: 'secret123' });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Registration failed');
    expect(screen.getByRole('alert')).toHaveTextContent('An account with this email already exists.');
  });
});
