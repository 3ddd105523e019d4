import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import {
  expectNoA11yViolations,
  PHONE_VIEWPORT,
  registerViaUi,
  uniqueAccount,
  uniqueName,
  watchForPageProblems,
} from './helpers';

/**
 * Integrations end to end against the real server: a new owner creates an API key (shown once,
 * working until revoked), adds a webhook to a receiver this test runs on 127.0.0.1 (the server
 * runs with WEBHOOKS_ALLOW_PRIVATE_TARGETS=true), sends it a test event that arrives signed, and
 * copies and replaces the calendar link.
 */

type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: string };

/** A tiny HTTP receiver on a free port of 127.0.0.1 that answers 200 and keeps what it got. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook`, received };
}

/** Opens Integrations from the account navigation: the sidebar, or on a phone the slide-out menu. */
async function openIntegrations(page: Page, phone: boolean) {
  if (phone) {
    await page.getByTestId('mobile-topbar').getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('mobile-menu').getByRole('link', { name: 'Integrations' }).click();
  } else {
    await page
      .getByTestId('sidebar')
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Integrations' })
      .click();
  }
  await expect(page).toHaveURL(/\/account\/integrations$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
}

/** What the page's inputs hold (a secret shown once must not be in any of them any more). */
function inputValues(page: Page): Promise<string[]> {
  return page.locator('input').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
}

/** The flow runs at the desktop width of the config and again on a phone (as requirements.spec). */
const WIDTHS = [
  { name: 'desktop', phone: false, use: {} },
  { name: 'phone', phone: true, use: { viewport: PHONE_VIEWPORT, hasTouch: true, isMobile: true } },
] as const;

for (const width of WIDTHS) {
  test.describe(`at ${width.name} width`, () => {
    test.use(width.use);

    test('API key, webhook with a signed test event, calendar link', async ({ page, context }) => {
      test.setTimeout(150_000);
      const problems = watchForPageProblems(page);
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const receiver = await startReceiver();
      try {
        await registerViaUi(page, uniqueAccount('e2e-integrations'));
        await openIntegrations(page, width.phone);
        await expectNoA11yViolations(page, 'integrations page');

        // An API key for reading: shown once, works, then revoked and refused.
        const keyName = uniqueName('Accounting');
        await page.getByRole('button', { name: 'Create API key' }).click();
        const create = page.getByRole('dialog', { name: 'Create API key' });
        await create.getByRole('textbox', { name: 'Name' }).fill(keyName);
        await create.getByRole('radio', { name: /Read only/ }).check();
        await expectNoA11yViolations(page, 'create API key dialog', { phone: false });
        await create.getByRole('button', { name: 'Create key' }).click();
        const created = page.getByRole('dialog', { name: 'API key created' });
        await expect(created.getByText("Copy this key now. You won't be able to see it again.")).toBeVisible();
        const key = await created.getByRole('textbox', { name: `API key for ${keyName}` }).inputValue();
        expect(key).toMatch(/^vwk_[A-Za-z0-9]{40}$/);
        await created.getByRole('button', { name: 'Copy API key' }).click();
        // The page's toasts are inert behind a dialog: the button says so itself.
        await expect(created.getByRole('button', { name: 'Copy API key' })).toHaveText(/Copied/);
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
        await expectNoA11yViolations(page, 'API key created dialog', { phone: false });
        await created.getByRole('button', { name: 'Done' }).click();
        await expect(page.getByRole('dialog')).toHaveCount(0);

        const keyRow = page.getByTestId('api-key-row').filter({ hasText: keyName });
        await expect(keyRow).toContainText('Read only');
        await expect(keyRow).toContainText(`${key.slice(0, 8)}…`);
        expect(await inputValues(page)).not.toContain(key);
        await page.reload();
        await expect(keyRow).toBeVisible();
        expect(await inputValues(page)).not.toContain(key);

        const withKey = { headers: { Authorization: `Bearer ${key}` } };
        const before = await page.request.get('/api/vendors', withKey);
        expect(before.status(), await before.text()).toBe(200);

        await keyRow.getByRole('button', { name: `Revoke ${keyName}` }).click();
        const revoke = page.getByRole('dialog', { name: `Revoke ${keyName}?` });
        await expect(revoke).toContainText('Systems using this key stop working at once.');
        await expectNoA11yViolations(page, 'revoke API key dialog', { phone: false });
        await revoke.getByRole('button', { name: 'Revoke' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'API key revoked' })).toBeVisible();
        await expect(keyRow).toHaveCount(0);
        const after = await page.request.get('/api/vendors', withKey);
        expect(after.status(), 'a revoked key is refused').toBe(401);

        // A webhook to the receiver: the signing secret is shown once.
        await page.getByRole('button', { name: 'Add endpoint' }).click();
        const add = page.getByRole('dialog', { name: 'Add endpoint' });
        await add.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url);
        await add.getByRole('checkbox', { name: 'Select all' }).uncheck();
        await add.getByRole('checkbox', { name: 'Vendor created' }).check();
        await add.getByRole('checkbox', { name: 'Document expired' }).check();
        await expectNoA11yViolations(page, 'add endpoint dialog', { phone: false });
        await add.getByRole('button', { name: 'Add endpoint' }).click();
        const added = page.getByRole('dialog', { name: 'Webhook added' });
        const secret = await added.getByRole('textbox', { name: 'Signing secret' }).inputValue();
        expect(secret).toMatch(/^whsec_/);
        await expect(added.getByText("Copy this secret now. You won't be able to see it again.")).toBeVisible();
        await expectNoA11yViolations(page, 'webhook added dialog', { phone: false });
        await added.getByRole('button', { name: 'Done' }).click();
        await expect(page.getByRole('dialog')).toHaveCount(0);

        const hookRow = page.getByTestId('webhook-row').filter({ hasText: receiver.url });
        await expect(hookRow).toContainText('Vendor created, Document expired');
        await expect(hookRow).toContainText('Nothing sent yet');
        expect(await inputValues(page)).not.toContain(secret);

        // The test event reaches the receiver, signed as the dialog said.
        await hookRow.getByRole('button', { name: 'Send test event' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'Test event sent' })).toBeVisible();
        await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(0);
        const [ping] = receiver.received;
        expect(ping.method).toBe('POST');
        expect(ping.url).toBe('/hook');
        const signature = String(ping.headers['vendorwatch-signature'] ?? '');
        const parts = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
        expect(parts, `Vendorwatch-Signature: ${signature}`).not.toBeNull();
        const [, t, v1] = parts ?? [];
        expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(300);
        expect(v1, 'v1 is the HMAC-SHA256 of "<t>.<body>" with the signing secret').toBe(
          createHmac('sha256', secret).update(`${t}.${ping.body}`).digest('hex'),
        );

        // The deliveries log shows the test event delivered (refreshed until the server has recorded it).
        const log = page.getByLabel(`Deliveries to ${receiver.url}`);
        await expect(log).toBeVisible();
        await expect(async () => {
          await hookRow.getByRole('button', { name: 'Refresh deliveries' }).click();
          await expect(log).toContainText('Test event');
          await expect(log).toContainText('Delivered', { timeout: 1_000 });
        }).toPass({ timeout: 20_000 });
        await expect(log).toContainText('200');
        await expectNoA11yViolations(page, 'webhook deliveries');

        await hookRow.getByRole('button', { name: 'Delete' }).click();
        const remove = page.getByRole('dialog', { name: 'Delete this webhook?' });
        await remove.getByRole('button', { name: 'Delete' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'Webhook deleted' })).toBeVisible();
        await expect(hookRow).toHaveCount(0);

        // The calendar link: copied, then replaced by a new one.
        const link = page.getByRole('textbox', { name: 'Calendar link' });
        const first = await link.inputValue();
        expect(first).toMatch(/^https?:\/\/.+\.ics$/);
        await page.getByRole('button', { name: 'Copy calendar link' }).click();
        await expect(page.getByRole('button', { name: 'Copy calendar link' })).toHaveText(/Copied/);
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
        const feed = await page.request.get(first);
        expect(feed.status()).toBe(200);
        expect(await feed.text()).toContain('BEGIN:VCALENDAR');

        await page.getByRole('button', { name: 'Get a new link' }).click();
        const rotate = page.getByRole('dialog', { name: 'Get a new link?' });
        await expect(rotate).toContainText('The current link stops working at once.');
        await expectNoA11yViolations(page, 'new calendar link dialog', { phone: false });
        await rotate.getByRole('button', { name: 'Get a new link' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'Calendar link replaced' })).toBeVisible();
        await expect(link).not.toHaveValue(first);
        const second = await link.inputValue();
        expect(second).toMatch(/^https?:\/\/.+\.ics$/);
        expect((await page.request.get(first)).status(), 'the old link stops working').toBeGreaterThanOrEqual(400);
        expect((await page.request.get(second)).status()).toBe(200);

        // Nothing on the page is wider than the screen.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await expectNoA11yViolations(page, 'integrations page, done');
        expect(problems).toEqual([]);
      } finally {
        await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
      }
    });
  });
}
