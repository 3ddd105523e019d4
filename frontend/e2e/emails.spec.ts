import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, uniqueAccount } from './helpers';

/**
 * Every email opened on a 375 px phone: nothing wider than the screen, and a title. The
 * templates come rendered with long sample values from `cargo loco task mail_previews`, which
 * scripts/test runs into `$E2E_MAIL_DIR/previews`; a real email (the password reset) is read
 * back from the outbox folder the server writes to (`E2E_MAIL_DIR`).
 */
const mailDir = process.env.E2E_MAIL_DIR;
const previewDir = mailDir ? join(mailDir, 'previews') : undefined;
const previews =
  previewDir && existsSync(previewDir)
    ? readdirSync(previewDir)
        .filter((file) => file.endsWith('.html'))
        .sort()
    : [];

test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

async function expectFitsAPhone(page: Page, html: string, what: string) {
  await page.setContent(html, { waitUntil: 'load' });
  const { scrollWidth, innerWidth, title } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    title: document.title,
  }));
  expect(innerWidth, `${what}: the viewport meta makes the page as wide as the phone`).toBe(375);
  expect(scrollWidth, `${what}: content wider than the phone`).toBeLessThanOrEqual(375);
  expect(title.trim(), `${what}: a title`).not.toBe('');
}

test('every email template is there to check', () => {
  test.skip(!mailDir, 'E2E_MAIL_DIR is not set (scripts/test sets it)');
  expect(previews.length, `templates in ${previewDir}`).toBeGreaterThanOrEqual(9);
});

for (const file of previews) {
  test(`the ${file.replace(/\.html$/, '')} email fits a 375px phone and has a title`, async ({ page }) => {
    await expectFitsAPhone(page, readFileSync(join(previewDir ?? '', file), 'utf8'), file);
  });
}

/** The HTML part of an .eml file as lettre writes it (7bit, quoted-printable or base64). */
function htmlPart(eml: string): string {
  const boundary = /boundary="([^"]+)"/.exec(eml)?.[1];
  const parts = boundary ? eml.split(`--${boundary}`) : [eml];
  const part = parts.find((p) => /Content-Type: text\/html/i.test(p)) ?? '';
  const split = part.indexOf('\r\n\r\n');
  const head = part.slice(0, split);
  const body = part.slice(split + 4);
  const encoding = /Content-Transfer-Encoding: ([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

test('a real email from the outbox (the password reset) fits a 375px phone', async ({ page, request }) => {
  test.skip(!mailDir, 'E2E_MAIL_DIR is not set (scripts/test sets it)');
  const account = uniqueAccount('e2e-mail');
  await registerViaApi(request, account);
  const response = await request.post('/api/auth/forgot', { data: { email: account.email } });
  expect(response.status()).toBe(200);
  let eml = '';
  await expect
    .poll(() => {
      const found = readdirSync(mailDir ?? '')
        .filter((file) => file.endsWith('.eml'))
        .map((file) => readFileSync(join(mailDir ?? '', file), 'utf8'))
        .find((text) => text.includes(`To: ${account.email}`));
      eml = found ?? '';
      return eml !== '';
    })
    .toBe(true);
  const html = htmlPart(eml);
  expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  expect(html).toContain('<title>Reset your Vendorwatch password</title>');
  await expectFitsAPhone(page, html, 'the password reset');
});
