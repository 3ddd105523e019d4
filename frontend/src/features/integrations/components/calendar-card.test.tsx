import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { http } from '@/testing/mocks/http';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

describe('calendar feed', () => {
  it('shows the link, copies it, and replaces it after confirming', async () => {
    signInAs();
    const { user } = renderApp('/account/integrations');
    const link = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Calendar link' });
    const first = `${window.location.origin}/api/calendar/cal-token-1.ics`;
    expect(link).toHaveValue(first);
    expect(link).toHaveAttribute('readonly');
    await user.click(screen.getByRole('button', { name: 'Copy calendar link' }));
    expect(await navigator.clipboard.readText()).toBe(first);

    await user.click(screen.getByRole('button', { name: 'Get a new link' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/The current link stops working at once./)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Get a new link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Calendar link replaced');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const second = `${window.location.origin}/api/calendar/${db.integrations.calendarToken}.ics`;
    expect(second).not.toBe(first);
    expect(screen.getByRole('textbox', { name: 'Calendar link' })).toHaveValue(second);
  });

  it("shows the server's message when the link cannot be replaced", async () => {
    signInAs();
    server.use(
      http.untyped.post('*/api/calendar-feed/rotate', () =>
        HttpResponse.json({ error: 'internal', message: 'Try again in a moment.' }, { status: 500 }),
      ),
    );
    const { user } = renderApp('/account/integrations');
    await user.click(await screen.findByRole('button', { name: 'Get a new link' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Get a new link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Try again in a moment.');
    expect(screen.getByRole('textbox', { name: 'Calendar link' })).toHaveValue(
      `${window.location.origin}/api/calendar/cal-token-1.ics`,
    );
  });
});
