import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildDocument, buildVendor } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, within } from '@/testing/test-utils';

function seed() {
  signInAs({ orgRole: 'member' });
  db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Granite Builders LLC' })];
  db.documents = [
    buildDocument({
      id: 'doc-coi',
      vendorId: 'AAAAAAA1',
      vendor: 'Granite Builders LLC',
      fileName: 'coi.pdf',
      documentType: 'coi',
      coiType: 'general_liability',
    }),
    buildDocument({ id: 'doc-w9', vendorId: 'AAAAAAA1', vendor: 'Granite Builders LLC', fileName: 'w9.pdf', documentType: 'w9' }),
  ];
}

async function row(fileName: string) {
  const table = await screen.findByRole('table', { name: 'Vendor documents' });
  return within(within(table).getByText(fileName).closest('tr') as HTMLElement);
}

describe('coverage form', () => {
  it('is offered on certificates of insurance only', async () => {
    seed();
    renderApp('/vendors/AAAAAAA1');
    expect((await row('coi.pdf')).getByRole('button', { name: 'Coverage' })).toBeInTheDocument();
    expect((await row('w9.pdf')).queryByRole('button', { name: 'Coverage' })).not.toBeInTheDocument();
  });

  it('saves what the certificate shows, with the server’s field errors beside the fields', async () => {
    seed();
    const { user } = renderApp('/vendors/AAAAAAA1');
    await user.click((await row('coi.pdf')).getByRole('button', { name: 'Coverage' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Certificate coverage' }));
    expect(dialog.getByRole('textbox', { name: 'Insured' })).toHaveValue('Granite Builders LLC');
    await user.type(dialog.getByRole('textbox', { name: 'Producer' }), 'Acme Insurance Agency');
    await user.click(dialog.getByRole('button', { name: /Add a line/ }));
    await user.click(await screen.findByRole('option', { name: 'General liability' }));
    await user.click(dialog.getByRole('button', { name: 'Add line' }));
    const line = within(dialog.getByRole('group', { name: 'General liability' }));
    await user.type(line.getByRole('textbox', { name: 'Insurer' }), 'Hartford');
    await user.type(line.getByRole('textbox', { name: 'Policy number' }), 'GL-123');
    await user.type(line.getByLabelText('Effective date'), '2026-01-01');
    await user.type(line.getByLabelText('Expiration date'), '2027-01-01');
    const each = line.getByRole('textbox', { name: 'Each occurrence' });
    await user.type(each, '$1M');
    const aggregate = line.getByRole('textbox', { name: 'General aggregate' });
    await user.type(aggregate, 'plenty');
    await user.click(line.getByRole('checkbox', { name: 'Additional insured' }));
    await user.click(dialog.getByRole('button', { name: 'Save coverage' }));
    expect(await screen.findByText('Could not save the coverage')).toBeInTheDocument();
    expect(aggregate).toHaveAccessibleDescription(/Write an amount in whole dollars/);
    expect(each).not.toHaveAttribute('aria-invalid', 'true');
    await user.clear(aggregate);
    await user.type(aggregate, '2,000,000');
    await user.click(dialog.getByRole('button', { name: 'Save coverage' }));
    expect(await screen.findByText('Coverage saved')).toBeInTheDocument();
    expect(db.documents[0]!.coverage).toMatchObject({
      insured: 'Granite Builders LLC',
      producer: 'Acme Insurance Agency',
      certificateHolder: null,
      source: 'manual',
      lines: [
        {
          line: 'general_liability',
          insurer: 'Hartford',
          policyNumber: 'GL-123',
          effectiveDate: '2026-01-01',
          expirationDate: '2027-01-01',
          limits: { eachOccurrence: 1_000_000, generalAggregate: 2_000_000 },
          additionalInsured: true,
          waiverOfSubrogation: false,
        },
      ],
    });
  });

  it('opens with the coverage entered before, and removes a line', async () => {
    seed();
    db.documents[0]!.coverage = {
      insured: 'Granite Builders LLC',
      producer: null,
      certificateHolder: 'Acme',
      source: 'manual',
      lines: [
        { line: 'automobile', limits: { combinedSingleLimit: 1_000_000 }, additionalInsured: false, waiverOfSubrogation: false },
      ],
    };
    const { user } = renderApp('/vendors/AAAAAAA1');
    await user.click((await row('coi.pdf')).getByRole('button', { name: 'Coverage' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Certificate coverage' }));
    expect(dialog.getByRole('textbox', { name: 'Certificate holder' })).toHaveValue('Acme');
    expect(dialog.getByRole('textbox', { name: 'Combined single limit' })).toHaveValue('$1,000,000');
    await user.click(dialog.getByRole('button', { name: 'Remove Automobile liability' }));
    await user.click(dialog.getByRole('button', { name: 'Save coverage' }));
    expect(await screen.findByText('Coverage saved')).toBeInTheDocument();
    expect(db.documents[0]!.coverage?.lines).toEqual([]);
  });
});
