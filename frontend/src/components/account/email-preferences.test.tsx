import { describe, expect, it } from 'vitest';
import { renderApp, screen, signInAs, waitFor } from '@/testing/test-utils';
import { REMINDER_EMAILS_LABEL } from './email-preferences';

describe('email preferences on the account page', () => {
  it('turns reminder emails off, for a viewer too, with a toast', async () => {
    const account = signInAs({ orgRole: 'viewer', reminderEmails: true });
    const { user } = renderApp('/billing');
    const reminder = await screen.findByRole('switch', { name: REMINDER_EMAILS_LABEL });
    await waitFor(() => expect(reminder).toBeEnabled());
    expect(reminder).toBeChecked();
    await user.click(reminder);
    expect(await screen.findByRole('status')).toHaveTextContent('You will no longer get the reminder emails.');
    expect(account.reminderEmails).toBe(false);
    expect(reminder).not.toBeChecked();
    expect(account.weeklySummary).toBe(false);
  });
});
