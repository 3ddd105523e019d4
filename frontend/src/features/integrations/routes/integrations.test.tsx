import { describe, expect, it } from 'vitest';
import { renderApp, screen, signInAs, within } from '@/testing/test-utils';
import { INTEGRATIONS_REASON } from './integrations';

describe('integrations page', () => {
  it.each(['owner', 'admin'] as const)('is in the account navigation of an %s', async (orgRole) => {
    signInAs({ orgRole });
    const { user, router } = renderApp('/dashboard');
    const account = within(await screen.findByTestId('sidebar')).getByRole('navigation', { name: 'Account' });
    await user.click(within(account).getByRole('link', { name: 'Integrations' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Integrations' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/integrations');
    for (const name of ['API keys', 'Webhooks', 'Calendar']) {
      expect(await screen.findByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
  });

  it.each(['member', 'viewer'] as const)('is not in the navigation of a %s, and says why at its address', async (orgRole) => {
    signInAs({ orgRole });
    renderApp('/account/integrations');
    expect(await screen.findByRole('note')).toHaveTextContent(INTEGRATIONS_REASON);
    const account = within(screen.getByTestId('sidebar')).getByRole('navigation', { name: 'Account' });
    expect(within(account).getByRole('link', { name: 'Team' })).toBeInTheDocument();
    expect(within(account).queryByRole('link', { name: 'Integrations' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create API key' })).not.toBeInTheDocument();
  });

  it.each(['member', 'viewer'] as const)("is not in a %s's phone menu", async (orgRole) => {
    signInAs({ orgRole });
    const { user } = renderApp('/dashboard');
    await user.click(within(await screen.findByTestId('mobile-topbar')).getByRole('button', { name: 'Open menu' }));
    const menu = within(await screen.findByTestId('mobile-menu'));
    expect(menu.getByRole('link', { name: 'Team' })).toBeInTheDocument();
    expect(menu.queryByRole('link', { name: 'Integrations' })).not.toBeInTheDocument();
  });

  it("is in an owner's phone menu", async () => {
    signInAs();
    const { user } = renderApp('/dashboard');
    await user.click(within(await screen.findByTestId('mobile-topbar')).getByRole('button', { name: 'Open menu' }));
    const menu = within(await screen.findByTestId('mobile-menu'));
    expect(menu.getByRole('link', { name: 'Integrations' })).toHaveAttribute('href', '/account/integrations');
  });
});
