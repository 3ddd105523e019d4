import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor } from '@/testing/test-utils';
import { TIME_ZONE_LABEL } from './time-zone-card';

describe('time zone on the account page', () => {
  it('shows the organization’s zone and saves another, with a toast', async () => {
    const account = signInAs({ timeZone: 'UTC' });
    const { user } = renderApp('/billing');
    const select = await screen.findByRole('combobox', { name: TIME_ZONE_LABEL });
    await waitFor(() => expect(select).toBeEnabled());
    expect(select).toHaveValue('UTC');
    expect(select).toHaveAccessibleDescription(/reminders and the weekly summary are sent/);

    await user.selectOptions(select, 'America/Los_Angeles');
    expect(await screen.findByRole('status')).toHaveTextContent('Time zone saved');
    expect(screen.getByRole('status')).toHaveTextContent('America/Los Angeles');
    expect(select).toHaveValue('America/Los_Angeles');
    expect(account.timeZone).toBe('America/Los_Angeles');
    expect(JSON.parse(localStorage.getItem('user')!).timeZone).toBe('America/Los_Angeles');
  });

  it("puts the zone back and toasts the server's sentence when saving fails", async () => {
    signInAs({ timeZone: 'Europe/Paris' });
    server.use(
      http.put('/api/account/organization', () =>
        HttpResponse.json(
          {
            error: 'validation_failed',
            message: 'Choose a time zone from the list.',
            errors: { timeZone: ['Choose a time zone from the list.'] },
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = renderApp('/billing');
    const select = await screen.findByRole('combobox', { name: TIME_ZONE_LABEL });
    await waitFor(() => expect(select).toBeEnabled());
    await user.selectOptions(select, 'Asia/Tokyo');
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Could not save the time zone');
    expect(toast).toHaveTextContent('Choose a time zone from the list.');
    await waitFor(() => expect(select).toHaveValue('Europe/Paris'));
  });
});
