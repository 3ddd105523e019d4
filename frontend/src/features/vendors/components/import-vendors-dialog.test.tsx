import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeXhr } from '@/testing/fake-xhr';
import { db } from '@/testing/mocks/db';
import { buildVendor } from '@/testing/mocks/fixtures';
import { answerImportXhr } from '@/testing/mocks/vendor-import';
import { fireEvent, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

/** A file of the bytes given: text in Windows-1252 is written one byte a character. */
const latin1File = (text: string, name = 'vendors.csv') =>
  new File([Uint8Array.from(text, (c) => c.charCodeAt(0))], name, { type: 'text/csv' });
const textFile = (lines: string[], name = 'vendors.csv') => new File([lines.join('\r\n')], name, { type: 'text/csv' });

async function openImport({ plan = 'professional' }: { plan?: 'free' | 'professional' } = {}) {
  signInAs();
  db.plan =
    plan === 'professional'
      ? { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null }
      : { plan: 'free', vendorLimit: 2, documentLimitPerVendor: 10 };
  const xhr = installFakeXhr(answerImportXhr);
  const app = renderApp('/vendors');
  await app.user.click(await screen.findByRole('button', { name: 'Import CSV' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import Vendors' });
  const pick = async (file: File) => {
    await app.user.upload(within(dialog).getByLabelText('CSV file'), file);
    await within(dialog).findByRole('table', { name: 'Import preview' });
  };
  /** The fields each call sent, a file by its name. */
  const sent = () =>
    xhr.requests.map((request) =>
      Object.fromEntries([...request.body!.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${v.name}`])),
    );
  return { ...app, dialog: within(dialog), xhr, pick, sent };
}

/** Waits for the call count, then for the dialog to have drawn the answer to the last one. */
async function answered(xhr: { requests: unknown[] }, count: number, dialog: ReturnType<typeof within>) {
  await waitFor(() => expect(xhr.requests).toHaveLength(count));
  await waitFor(() => expect(dialog.queryByRole('progressbar')).not.toBeInTheDocument());
}

const rowsOf = (dialog: ReturnType<typeof within>) =>
  within(dialog.getByRole('table', { name: 'Import preview' }))
    .getAllByRole('row')
    .slice(1);

describe('Import Vendors dialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends the file's bytes as saved, with a progress bar, and says how the server read them", async () => {
    const { user, dialog, xhr, sent } = await openImport();
    const bytes = 'Vendor list\r\nName;E-mail;Trade\r\nCaf\xe9 Ol\xe9;cafe@example.com;Cleaning\r\n';
    await user.upload(dialog.getByLabelText('CSV file'), latin1File(bytes));

    const bar = await dialog.findByRole('progressbar', { name: 'Upload progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    await dialog.findByRole('table', { name: 'Import preview' });
    const file = xhr.requests[0]!.body!.get('file') as File;
    expect(file.size).toBe(bytes.length);
    expect(sent()).toEqual([{ file: 'file:vendors.csv', commit: 'false' }]);

    expect(dialog.getByText('Windows-1252 (Excel’s classic CSV)')).toBeInTheDocument();
    expect(dialog.getByText('semicolon')).toBeInTheDocument();
    expect(dialog.getByText(/Header found on line 2/)).toBeInTheDocument();
    expect(rowsOf(dialog)[0]).toHaveTextContent('Café Olé');
    expect(rowsOf(dialog)[0]).toHaveTextContent('Will be created');
    // The next step has the focus: the file's columns.
    expect(dialog.getByRole('heading', { name: 'Columns' })).toHaveFocus();
    expect(dialog.getByRole('combobox', { name: 'Column Trade' })).toHaveValue('serviceType');
    expect(dialog.getByRole('combobox', { name: 'Column Trade' })).toHaveAccessibleDescription('Sample: Cleaning');
  });

  it("sends a column's new field as the mapping and shows the preview it gives", async () => {
    const { user, dialog, xhr, pick, sent } = await openImport();
    await pick(textFile(['Company,Email,Service Type,Account #', 'Dana Drywall,dana@example.com,Plumbing,A-17']));
    expect(dialog.getByText('Ignored column:')).toBeInTheDocument();
    expect(dialog.getByText('Ignored column:').parentElement).toHaveTextContent('Account #');
    expect(dialog.getByRole('combobox', { name: 'Column Account #' })).toHaveValue('ignore');

    await user.selectOptions(dialog.getByRole('combobox', { name: 'Column Account #' }), 'Keep in Notes');
    await answered(xhr, 2, dialog);
    expect(sent()[1]).toEqual({ file: 'file:vendors.csv', commit: 'false', mapping: '{"Account #":"notes"}' });
    expect(dialog.getByRole('combobox', { name: 'Column Account #' })).toHaveValue('keep-in-notes');
    expect(dialog.queryByText('Ignored column:')).not.toBeInTheDocument();

    // A mapping the server refuses: its sentences by the columns, no rows, no import.
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Column Company' }), 'Contact email');
    await answered(xhr, 3, dialog);
    expect(JSON.parse(sent()[2]!.mapping!)).toEqual({ 'Account #': 'notes', Company: 'email' });
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'Contact email is filled from 2 columns ("Company", "Email"); choose one.',
    );
    expect(dialog.queryByRole('table', { name: 'Import preview' })).not.toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Import 0 vendors' })).toBeDisabled();

    await user.selectOptions(dialog.getByRole('combobox', { name: 'Column Company' }), 'Vendor name');
    await dialog.findByRole('table', { name: 'Import preview' });
    await user.click(dialog.getByRole('button', { name: 'Import 1 vendor' }));
    expect(await screen.findByRole('status')).toHaveTextContent('1 vendor imported');
    expect(sent()[4]).toEqual({
      file: 'file:vendors.csv',
      commit: 'true',
      mapping: '{"Account #":"notes","Company":"name"}',
    });
    expect(db.vendors.map((v) => [v.name, v.notes])).toEqual([['Dana Drywall', 'Account #: A-17']]);
  });

  it('sends the defaults chosen for rows without a service type or a requirement set', async () => {
    db.requirementSets = [{ id: 'set-1', name: 'Contractors', lines: [], vendorCount: 0 }];
    const { user, dialog, xhr, pick, sent } = await openImport();
    await pick(textFile(['Name,Email', 'Dana Drywall,dana@example.com']));
    expect(rowsOf(dialog)[0]).toHaveTextContent('Service type is required');
    // The service types a row may name are in sight while a row's service type is wrong.
    expect(dialog.getByText('Service types:').parentElement).toHaveTextContent(
      'Service types: General Contractor, Plumbing, Electrical, HVAC, Cleaning, Landscaping, Security, Pest Control, Technology, Consulting, Other.',
    );

    await user.selectOptions(dialog.getByRole('combobox', { name: 'Service type for rows without one' }), 'Plumbing');
    await answered(xhr, 2, dialog);
    expect(sent()[1]).toEqual({ file: 'file:vendors.csv', commit: 'false', defaults: '{"serviceType":"plumbing"}' });
    expect(rowsOf(dialog)[0]).toHaveTextContent('Will be created');
    expect(dialog.queryByText('Service types:')).not.toBeInTheDocument();

    await user.selectOptions(
      await dialog.findByRole('combobox', { name: 'Requirement set for rows without one' }),
      'Contractors',
    );
    await answered(xhr, 3, dialog);
    expect(JSON.parse(sent()[2]!.defaults!)).toEqual({ serviceType: 'plumbing', requirementSet: 'set-1' });

    await user.click(dialog.getByRole('button', { name: 'Import 1 vendor' }));
    expect(await screen.findByRole('status')).toHaveTextContent('1 vendor imported');
    expect(JSON.parse(sent()[3]!.defaults!)).toEqual({ serviceType: 'plumbing', requirementSet: 'set-1' });
    expect(db.vendors.map((v) => [v.serviceType, v.requirementSetId])).toEqual([['plumbing', 'set-1']]);
  });

  it('lists every problem of a row', async () => {
    const { dialog, pick } = await openImport();
    await pick(textFile(['Name,Email,Service Type', ',not-an-email,Roofing', 'Evan Electric,evan@example.com,electrical']));
    const [bad, good] = rowsOf(dialog);
    expect(within(bad!).getByText('Error')).toBeInTheDocument();
    expect(
      within(bad!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/^Service type "Roofing" is not one we know\./),
      'Vendor name is required',
      'Invalid email address',
    ]);
    expect(within(good!).queryAllByRole('listitem')).toHaveLength(0);
    expect(dialog.getByText('1 of 2 rows will be created.')).toBeInTheDocument();
    expect(dialog.getByText('Service types:')).toBeInTheDocument();
  });

  it("states the plan's room before importing, and what does not fit", async () => {
    const { dialog, pick } = await openImport({ plan: 'free' });
    db.vendors = [buildVendor({ name: 'Acme Plumbing', email: 'acme@example.com' })];
    await pick(
      textFile([
        'Name,Email,Service Type',
        'Dana Drywall,dana@example.com,plumbing',
        'Evan Electric,evan@example.com,electrical',
        'Fay Fences,fay@example.com,other',
      ]),
    );
    const limit = dialog.getByTestId('import-limit');
    expect(limit).toHaveTextContent('Your plan allows 2 vendors and you have 1: 1 more can be added.');
    expect(limit).toHaveTextContent(
      '3 rows could be imported, but only 1 fits: 2 rows past the limit will not be imported. Free accounts are limited to 2 vendors maximum.',
    );
    expect(dialog.getByRole('button', { name: 'Import 1 vendor' })).toBeEnabled();
  });

  it('draws a list of 5,000 rows a hundred at a time, the rows with problems first', async () => {
    const { user, dialog, pick } = await openImport();
    db.plan = { plan: 'professional', vendorLimit: 10_000, documentLimitPerVendor: null };
    const lines = Array.from({ length: 5000 }, (_, i) =>
      [4000, 4500, 4999].includes(i) ? `Vendor ${i},broken-${i},plumbing` : `Vendor ${i},v${i}@example.com,plumbing`,
    );
    await pick(textFile(['Name,Email,Service Type', ...lines]));
    expect(rowsOf(dialog)).toHaveLength(100);
    expect(
      rowsOf(dialog)
        .slice(0, 4)
        .map((row) => row.getAttribute('data-status')),
    ).toEqual(['error', 'error', 'error', 'create']);
    expect(rowsOf(dialog)[0]).toHaveTextContent('Vendor 4000');
    expect(dialog.getByText('Showing 100 of 5,000 rows; 3 with problems.')).toBeInTheDocument();
    expect(dialog.getByText('4,997 of 5,000 rows will be created.')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Show 100 more' }));
    expect(rowsOf(dialog)).toHaveLength(200);
    expect(dialog.getByRole('button', { name: 'Import 4,997 vendors' })).toBeEnabled();
  });

  it('asks for the column of names when no column fills it', async () => {
    const { user, dialog, xhr, pick, sent } = await openImport();
    await pick(textFile(['Firma,Email,Service Type', 'Dana Drywall,dana@example.com,plumbing']));
    expect(dialog.getByText('No column fills Vendor name: choose the column with the vendors’ names.')).toBeInTheDocument();
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Column Firma' }), 'Vendor name');
    await answered(xhr, 2, dialog);
    expect(JSON.parse(sent()[1]!.mapping!)).toEqual({ Firma: 'name' });
    expect(dialog.queryByText('No column fills Vendor name: choose the column with the vendors’ names.')).not.toBeInTheDocument();
  });

  it('keeps no preview of other choices: a check that fails leaves nothing to import', async () => {
    const { user, dialog, xhr, pick } = await openImport();
    await pick(textFile(['Name,Email,Service Type,Account #', 'Dana Drywall,dana@example.com,plumbing,A-17']));
    expect(dialog.getByRole('button', { name: 'Import 1 vendor' })).toBeEnabled();
    xhr.reply = () => ({ status: 0, body: null, networkError: true });
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Column Account #' }), 'Keep in Notes');
    expect(await dialog.findByRole('alert')).toHaveTextContent('Upload failed');
    expect(dialog.queryByRole('table', { name: 'Import preview' })).not.toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Import 0 vendors' })).toBeDisabled();
  });

  it('refuses a file past 5 MB before sending it', async () => {
    const { dialog, xhr } = await openImport();
    const big = textFile(['Name,Email']);
    Object.defineProperty(big, 'size', { value: 5 * 1024 * 1024 + 1 });
    fireEvent.change(dialog.getByLabelText('CSV file'), { target: { files: [big] } });
    expect(await dialog.findByRole('alert')).toHaveTextContent('The file is too large: an import takes at most 5 MB.');
    expect(xhr.requests).toHaveLength(0);
  });
});
