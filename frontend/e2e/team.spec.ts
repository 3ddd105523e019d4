import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { createVendorViaApi, expectNoA11yViolations, registerViaUi, uniqueAccount, uniqueName } from './helpers';

/**
 * Teams end to end: the owner invites a viewer from the Team page, the invitation link is read
 * from the mail outbox the server writes to (`E2E_MAIL_DIR`, as the password reset in
 * emails.spec), the viewer accepts and lands signed in on a read-only app, and the owner removes
 * them.
 */
const mailDir = process.env.E2E_MAIL_DIR;
const VIEWER_REASON = 'Viewers can look but not change anything. Ask an admin of your team to make you a member.';

/** The decoded text of an .eml (quoted-printable soft breaks and escapes undone). */
function decoded(eml: string): string {
  return eml.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function invitationLink(email: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const found = readdirSync(mailDir ?? '')
          .filter((file) => file.endsWith('.eml'))
          .map((file) => decoded(readFileSync(join(mailDir ?? '', file), 'utf8')))
          .filter((text) => text.includes(`To: ${email}`))
          .map((text) => /https?:\/\/[^\s"'<>]*\/accept-invitation\?token=[A-Za-z0-9_-]+/.exec(text)?.[0])
          .find(Boolean);
        link = found ?? '';
        return link !== '';
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return link;
}

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test('invite, accept as a viewer, read-only screens, removal', async ({ page, browser }) => {
  test.skip(!mailDir, 'E2E_MAIL_DIR is not set (scripts/test sets it)');
  test.setTimeout(120_000);
  const owner = uniqueAccount('e2e-team-owner');
  await registerViaUi(page, owner);
  const vendorName = uniqueName('Team Vendor');
  const vendorId = await createVendorViaApi(page, { name: vendorName });

  // The owner invites a viewer from the Team page.
  await page.goto('/account/team');
  await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible();
  await expectNoA11yViolations(page, 'team page');
  await page.getByRole('button', { name: 'Invite' }).click();
  const dialog = page.getByRole('dialog');
  const invitee = uniqueAccount('e2e-team-viewer');
  await dialog.getByLabel('Email address').fill(invitee.email);
  await dialog.getByRole('button', { name: /Role/ }).click();
  await page.getByRole('option', { name: 'Viewer' }).click();
  await expectNoA11yViolations(page, 'invite dialog', { phone: false });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Invitation sent' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Pending invitations' })).toContainText(invitee.email);

  // The invited person opens the emailed link in a browser of their own.
  const link = new URL(await invitationLink(invitee.email));
  const viewer = await newPage(browser);
  await viewer.page.goto(`${link.pathname}${link.search}`);
  await expect(viewer.page.getByText(`${owner.name} invited you to join`)).toBeVisible();
  await expect(viewer.page.getByText('as viewer.', { exact: false })).toBeVisible();
  await expect(viewer.page.getByLabel('Email address')).toHaveValue(invitee.email);
  await expectNoA11yViolations(viewer.page, 'accept invitation');
  await viewer.page.getByLabel('Full Name').fill('Vic Viewer');
  await viewer.page.getByLabel('Password', { exact: true }).fill(invitee.password);
  await viewer.page.getByRole('button', { name: 'Join the team' }).click();
  await expect(viewer.page).toHaveURL(/\/dashboard$/);

  // The viewer sees the vendor, with its write controls disabled and saying why.
  await viewer.page.goto(`/vendors/${vendorId}`);
  await expect(viewer.page.getByRole('heading', { level: 1, name: vendorName })).toBeVisible();
  const upload = viewer.page.getByRole('button', { name: 'Upload Document' }).first();
  await expect(upload).toBeDisabled();
  await expect(upload).toHaveAttribute('title', VIEWER_REASON);
  await expect(viewer.page.getByRole('link', { name: 'Edit Vendor' })).toHaveAttribute('aria-disabled', 'true');
  await expectNoA11yViolations(viewer.page, 'vendor as a viewer');
  await viewer.page.goto('/vendors');
  await expect(viewer.page.getByRole('button', { name: 'Import CSV' })).toBeDisabled();

  // The owner's Activity Log names who made each change, and filters by person.
  await page.goto('/activity');
  const entries = page.getByRole('list', { name: 'Activities' });
  const added = entries.getByRole('listitem').filter({ hasText: `Vendor ${vendorName} was added` });
  await expect(added.getByTestId('activity-author')).toHaveText(owner.name);
  await page.getByRole('button', { name: /Filter by person/ }).click();
  await page.getByRole('option', { name: 'Vic Viewer' }).click();
  await expect(page.getByText('No activities found')).toBeVisible();
  await expectNoA11yViolations(page, 'activity log with people');

  // The owner removes the viewer; the viewer's session stops working.
  await page.goto('/account/team');
  const row = page.getByTestId('member-row').filter({ hasText: 'Vic Viewer' });
  await row.getByRole('button', { name: 'Remove' }).click();
  await expectNoA11yViolations(page, 'remove dialog', { phone: false });
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'no longer has access' })).toBeVisible();
  await expect(page.getByTestId('member-row').filter({ hasText: 'Vic Viewer' })).toHaveCount(0);

  await viewer.page.goto('/dashboard');
  await expect(viewer.page).toHaveURL(/\/login/);
  await viewer.context.close();
});
