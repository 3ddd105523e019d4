import { describe, expect, it } from 'vitest';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

describe('password reset', () => {
  it('answers a request with the neutral message', async () => {
    const { user } = renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('Email'), 'someone@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(
      await screen.findByText('If an account exists for that email, we sent a link to reset your password.'),
    ).toBeInTheDocument();
  });

  it("sets a new password, toasts 'Password updated' and goes to /login", async () => {
    const { user, router } = renderApp('/reset-password?token=good-token');
    await user.type(await screen.findByLabelText('New password'), 'newsecret');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.getByRole('status')).toHaveTextContent('Password updated');
  });

  it("shows the server's message for an expired token", async () => {
    const { user } = renderApp('/reset-password?token=old-token');
    await user.type(await screen.findByLabelText('New password'), 'newsecret');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByText('This reset link has expired or is invalid.')).toBeInTheDocument();
  });
});
