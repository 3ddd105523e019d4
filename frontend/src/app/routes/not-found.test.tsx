import { describe, expect, it } from 'vitest';
import { renderApp, screen } from '@/testing/test-utils';

describe('not-found page', () => {
  it('answers any unknown route', async () => {
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument();
  });
});
