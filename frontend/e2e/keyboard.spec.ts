import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  createVendorViaApi,
  isoDateFromToday,
  pdfFile,
  registerViaApi,
  storedToken,
  uniqueAccount,
  uniqueName,
  type Account,
} from './helpers';

/**
 * The main flows with the keyboard alone: Tab, Shift+Tab, Enter, Space, the arrow keys and
 * Escape, never the mouse (set-up through the API aside). Every stop of Tab shows where the
 * focus is, dialogs keep it inside and give it back to the button that opened them, and menus
 * and listboxes move by arrow keys.
 */

/** The element showing the focus: the focused one, or the option a menu or listbox marks active. */
async function focusIndicator(page: Page) {
  return page.evaluate(() => {
    let element = document.activeElement;
    const active = element?.getAttribute('aria-activedescendant');
    if (active) element = document.getElementById(active);
    if (!element || element === document.body) return { what: 'nothing', visible: false };
    const style = getComputedStyle(element);
    const transparent = (color: string) =>
      color === 'transparent' || /^rgba\(([^,]+,){3}\s*0\)$/.test(color) || /\/\s*0\)$/.test(color);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 && !transparent(style.outlineColor);
    // A ring: a box-shadow with a spread and a colour (Tailwind's ring-*), not a soft drop shadow.
    const ring = (style.boxShadow === 'none' ? [] : style.boxShadow.split(/,(?![^(]*\))/)).some((shadow) => {
      const color = /^\s*((?:rgba?|oklab|oklch|color)\([^)]*\)|#\w+)/.exec(shadow)?.[1] ?? '';
      const lengths = [...shadow.matchAll(/(-?[\d.]+)px/g)].map((m) => parseFloat(m[1]));
      return lengths.length === 4 && lengths[3] > 0 && color !== '' && !transparent(color);
    });
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
    return {
      what: `<${element.tagName.toLowerCase()}> "${name}" (outline: ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}; box-shadow: ${style.boxShadow})`,
      visible: outline || ring,
    };
  });
}

async function expectFocusVisible(page: Page) {
  const focus = await focusIndicator(page);
  expect(focus.visible, `the focus on ${focus.what} shows an outline or a ring`).toBe(true);
}

async function isFocused(target: Locator) {
  return target.evaluate((element) => element === document.activeElement);
}

/** Presses Tab (or Shift+Tab) until `target` has the focus, checking every stop shows it. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 40 } = {}) {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    await expectFocusVisible(page);
    if (await isFocused(target)) return;
  }
  throw new Error(`${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'} never reached ${target}`);
}

/** The text of the option or menu item the arrow keys made active. */
async function activeOption(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const id = document.activeElement?.getAttribute('aria-activedescendant');
    return id ? (document.getElementById(id)?.textContent?.trim() ?? null) : null;
  });
}

/** Moves through an open menu or listbox with `key` until the item named `name` is active. */
async function arrowTo(page: Page, name: string, key: 'ArrowDown' | 'ArrowUp' = 'ArrowDown', max = 20) {
  for (let i = 0; i < max; i++) {
    if ((await activeOption(page)) === name) {
      await expectFocusVisible(page);
      return;
    }
    await page.keyboard.press(key);
  }
  throw new Error(`${max} presses of ${key} never reached '${name}' (at '${await activeOption(page)}')`);
}

/** Tab round a dialog more times than it has stops: the focus never leaves it. */
async function expectFocusTrapped(page: Page, dialog: Locator, presses = 12) {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < presses; i++) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `${key} stays in the dialog`).toBe(true);
      await expectFocusVisible(page);
    }
  }
}

/** /login by keyboard: Email, Password, Sign in with Enter. */
async function signInWithKeyboard(page: Page, account: Account) {
  await page.goto('/login');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(account.email);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(account.password);
  await tabTo(page, page.getByRole('button', { name: 'Sign in' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: 'Login successful' })).toBeVisible();
}

/** From the landing page (signed in) to the dashboard, by its header link. */
async function toDashboardWithKeyboard(page: Page) {
  await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Go to Dashboard' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

// Every key is its own round trip to the browser, and every stop checks the focus ring: these
// flows take 10-30 s on a quiet 2-core machine, more on a busy one.
test.describe.configure({ timeout: 90_000 });

test('sign in with the keyboard: a wrong password, the show-password toggle, then the right one', async ({ page, request }) => {
  const account = uniqueAccount('e2e-kbd-login');
  await registerViaApi(request, account);
  await page.goto('/login');

  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(account.email);
  const password = page.getByLabel('Password', { exact: true });
  await tabTo(page, password);
  await page.keyboard.type('not-the-password');
  // Enter in a field submits the form.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Login failed' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // The focus stays in the password field: cleared and typed again.
  await expect(password).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(account.password);
  await tabTo(page, page.getByRole('button', { name: 'Show password' }));
  await page.keyboard.press('Space');
  await expect(password).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Hide password' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(password).toHaveAttribute('type', 'password');
  await tabTo(page, password, { backwards: true });

  await tabTo(page, page.getByRole('button', { name: 'Sign in' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: 'Login successful' })).toBeVisible();
  await toDashboardWithKeyboard(page);
});

test('add a vendor with the keyboard: the sidebar, the form, the service type listbox and the checkboxes', async ({
  page,
  request,
}) => {
  const account = uniqueAccount('e2e-kbd-vendor');
  await registerViaApi(request, account);
  await signInWithKeyboard(page, account);
  await toDashboardWithKeyboard(page);

  await tabTo(page, page.getByTestId('sidebar').getByRole('link', { name: 'Vendors' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/vendors$/);
  await tabTo(page, page.getByRole('main').getByRole('link', { name: 'Add New Vendor' }).first());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/vendors\/new$/);

  const form = page.getByRole('form', { name: 'Add New Vendor' });
  const name = uniqueName('Keyboard Electric');
  await tabTo(page, form.getByLabel('Vendor Name*'));
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Contact Email*')).toBeFocused();
  await page.keyboard.type('office@keyboard.example.com');

  // The listbox: ArrowDown opens it on the selected option, the arrows move, Enter picks (on
  // the closed listbox Enter submits the form, as on a native select).
  const serviceType = form.getByRole('button', { name: /Service Type/ });
  await tabTo(page, serviceType);
  await expect(serviceType).toHaveText('General Contractor');
  await page.keyboard.press('ArrowDown');
  const options = page.getByRole('listbox');
  await expect(options).toBeVisible();
  expect(await activeOption(page)).toBe('General Contractor');
  await arrowTo(page, 'HVAC');
  await arrowTo(page, 'Electrical', 'ArrowUp');
  await page.keyboard.press('Enter');
  await expect(options).toBeHidden();
  await expect(serviceType).toBeFocused();
  await expect(serviceType).toHaveText('Electrical');
  // Space opens it too; Escape closes it without a change.
  await page.keyboard.press('Space');
  await expect(options).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Escape');
  await expect(options).toBeHidden();
  await expect(serviceType).toBeFocused();
  await expect(serviceType).toHaveText('Electrical');

  // Space toggles a required document off.
  const agreement = form.getByRole('checkbox', { name: 'Vendor Agreement' });
  await expect(agreement).toBeChecked();
  await tabTo(page, agreement);
  await page.keyboard.press('Space');
  await expect(agreement).not.toBeChecked();

  await tabTo(page, form.getByRole('button', { name: 'Add Vendor' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/vendors\/[A-Za-z0-9]{8}$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Electrical', { exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Document status' })).toContainText('Vendor Agreement(not requested)');
});

test('upload a document with the keyboard: the dialog keeps the focus, the listboxes, the file chooser, and the focus comes back', async ({
  page,
  request,
}) => {
  const account = uniqueAccount('e2e-kbd-upload');
  await registerViaApi(request, account);
  await signInWithKeyboard(page, account);
  const name = uniqueName('Keyboard Plumbing');
  const vendorId = await createVendorViaApi(page, { name });
  await page.goto(`/vendors/${vendorId}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  const opener = page.getByRole('button', { name: 'Upload Document' }).first();
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Upload Document' });
  await expect(dialog).toBeVisible();
  await expectFocusTrapped(page, dialog);
  // Escape closes it and the focus goes back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await expectFocusVisible(page);

  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  const documentType = dialog.getByRole('button', { name: /Document Type/ });
  await tabTo(page, documentType);
  await page.keyboard.press('Space');
  await expect(page.getByRole('listbox')).toBeVisible();
  await arrowTo(page, 'Certificate of Insurance');
  await page.keyboard.press('Enter');
  await expect(documentType).toHaveText('Certificate of Insurance');
  const insuranceType = dialog.getByRole('button', { name: /Insurance Type/ });
  await tabTo(page, insuranceType);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('listbox')).toBeVisible();
  await arrowTo(page, 'General Liability');
  await page.keyboard.press('Enter');
  await expect(insuranceType).toHaveText('General Liability');

  // The date field takes its parts typed in order (month, day, year in en-US).
  const expires = isoDateFromToday(200);
  await tabTo(page, dialog.getByLabel('Expiration Date'));
  const [year, month, day] = expires.split('-');
  await page.keyboard.type(`${month}${day}${year}`);
  await expect(dialog.getByLabel('Expiration Date')).toHaveValue(expires);
  await tabTo(page, dialog.getByLabel('Notes'));
  await page.keyboard.type('Sent by keyboard');

  // The file input opens the chooser with Space, as a button would.
  await tabTo(page, dialog.getByLabel('File'));
  const choosing = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await choosing).setFiles(pdfFile('keyboard-gl.pdf'));
  await expect(dialog.getByText('keyboard-gl.pdf')).toBeVisible();

  await tabTo(page, dialog.getByRole('button', { name: 'Upload' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Document uploaded' })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  const row = page.getByRole('table', { name: 'Vendor documents' }).getByRole('row').filter({ hasText: 'keyboard-gl.pdf' });
  await expect(row).toContainText('General Liability');
});

test('delete a document and a vendor with the keyboard: Cancel and Escape give the focus back, the menu moves by arrow keys', async ({
  page,
  request,
}) => {
  const account = uniqueAccount('e2e-kbd-delete');
  await registerViaApi(request, account);
  await signInWithKeyboard(page, account);
  const name = uniqueName('Keyboard Cleaning');
  const vendorId = await createVendorViaApi(page, { name });
  const uploaded = await page.request.post(`/api/vendors/${vendorId}/documents`, {
    headers: { Authorization: `Bearer ${await storedToken(page)}` },
    multipart: { documentType: 'other', file: pdfFile('keyboard-other.pdf') },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);

  // A document: the row's Delete button, the dialog (Cancel has the focus), Cancel, then Delete.
  await page.goto(`/vendors/${vendorId}`);
  const documents = page.getByRole('table', { name: 'Vendor documents' });
  const row = documents.getByRole('row').filter({ hasText: 'keyboard-other.pdf' });
  const deleteDocument = row.getByRole('button', { name: 'Delete' });
  await tabTo(page, deleteDocument);
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectFocusVisible(page);
  await expectFocusTrapped(page, confirm, 3);
  await tabTo(page, confirm.getByRole('button', { name: 'Cancel' }));
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(deleteDocument).toBeFocused();
  await expect(row).toBeVisible();

  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await tabTo(page, confirm.getByRole('button', { name: 'Delete' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Document deleted' })).toBeVisible();
  await expect(row).toHaveCount(0);

  // A vendor: its row menu opens with Enter, the arrow keys move, Escape closes the menu and
  // then the dialog, each giving the focus back.
  await page.goto('/vendors');
  const actions = page.getByRole('button', { name: `Actions for ${name}` });
  await tabTo(page, actions);
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  expect(await activeOption(page)).toBe('View Details');
  await expectFocusVisible(page);
  await page.keyboard.press('ArrowDown');
  expect(await activeOption(page)).toBe('Documents');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(actions).toBeFocused();

  await page.keyboard.press('Space');
  await expect(menu).toBeVisible();
  await arrowTo(page, 'Delete');
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('This will permanently delete the vendor and all associated documents.');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectFocusTrapped(page, confirm, 3);
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(actions).toBeFocused();

  await page.keyboard.press('Enter');
  await arrowTo(page, 'Delete');
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Vendor deleted' })).toBeVisible();
  await expect(page.getByText('No vendors found')).toBeVisible();
});
