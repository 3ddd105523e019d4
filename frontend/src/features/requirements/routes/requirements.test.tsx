import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildVendor } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';
import type { RequirementSet } from '@/types/api';

function aSet(overrides: Partial<RequirementSet> = {}): RequirementSet {
  return {
    id: 'set-1',
    name: 'Contractors',
    vendorCount: 0,
    lines: [
      {
        line: 'general_liability',
        minimums: { eachOccurrence: 1_000_000, generalAggregate: 2_000_000 },
        additionalInsured: true,
        waiverOfSubrogation: false,
      },
    ],
    ...overrides,
  };
}

async function setRow(name: string) {
  const rows = await screen.findAllByTestId('requirement-set');
  const found = rows.find((r) => within(r).queryByRole('heading', { name }));
  if (!found) throw new Error(`no set ${name}`);
  return within(found);
}

describe('requirements page', () => {
  it('is in the account navigation', async () => {
    signInAs();
    const { user, router } = renderApp('/dashboard');
    const account = within(await screen.findByTestId('sidebar')).getByRole('navigation', { name: 'Account' });
    await user.click(within(account).getByRole('link', { name: 'Requirements' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Requirements' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/requirements');
  });

  it('lists each set with its lines in words and how many vendors use it', async () => {
    signInAs();
    db.requirementSets = [aSet()];
    db.vendors = [buildVendor({ requirementSetId: 'set-1' }), buildVendor({ requirementSetId: 'set-1' })];
    renderApp('/account/requirements');
    const row = await setRow('Contractors');
    expect(
      row.getByText('General liability: $1,000,000 each occurrence, $2,000,000 general aggregate; additional insured'),
    ).toBeInTheDocument();
    expect(row.getByText('2 vendors use it')).toBeInTheDocument();
  });

  it('creates a set from a template', async () => {
    signInAs({ orgRole: 'admin' });
    const { user } = renderApp('/account/requirements');
    expect(await screen.findByText(/No requirement sets yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New set' }));
    const dialog = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(dialog.getByRole('button', { name: /Start from/ })).toBeEnabled());
    await user.click(dialog.getByRole('button', { name: /Start from/ }));
    await user.click(await screen.findByRole('option', { name: 'Professional services' }));
    expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('Professional services');
    expect(dialog.getByRole('textbox', { name: 'Each claim' })).toHaveValue('$1,000,000');
    await user.click(dialog.getByRole('button', { name: 'Save set' }));
    expect(await screen.findByText('Requirement set saved')).toBeInTheDocument();
    const row = await setRow('Professional services');
    expect(row.getByText('Professional liability: $1,000,000 each claim, $2,000,000 aggregate')).toBeInTheDocument();
    expect(db.requirementSets).toHaveLength(1);
  });

  it('shows the server’s field errors next to the fields', async () => {
    signInAs();
    db.requirementSets = [aSet()];
    const { user } = renderApp('/account/requirements');
    const row = await setRow('Contractors');
    await user.click(row.getByRole('button', { name: 'Edit Contractors' }));
    const dialog = within(await screen.findByRole('dialog'));
    const each = dialog.getByRole('textbox', { name: 'Each occurrence' });
    await user.clear(each);
    await user.type(each, 'a lot');
    await user.click(dialog.getByRole('button', { name: 'Save set' }));
    expect(await screen.findByText('Could not save the requirement set')).toBeInTheDocument();
    expect(each).toHaveAccessibleDescription(/Write an amount in whole dollars/);
    expect(each).toHaveAttribute('aria-invalid', 'true');
    await user.clear(each);
    await user.type(each, '$2M');
    await user.click(dialog.getByRole('button', { name: 'Save set' }));
    expect(await screen.findByText('Requirement set saved')).toBeInTheDocument();
    expect(db.requirementSets[0].lines[0].minimums.eachOccurrence).toBe(2_000_000);
  });

  it('deletes a set after confirming', async () => {
    signInAs({ orgRole: 'owner' });
    db.requirementSets = [aSet()];
    const { user } = renderApp('/account/requirements');
    const row = await setRow('Contractors');
    await user.click(row.getByRole('button', { name: 'Delete Contractors' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete Contractors?' }));
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Requirement set deleted')).toBeInTheDocument();
    expect(await screen.findByText(/No requirement sets yet/)).toBeInTheDocument();
    expect(db.requirementSets).toHaveLength(0);
  });

  it('is read-only for members and viewers, with the reason on the disabled controls', async () => {
    signInAs({ orgRole: 'member' });
    db.requirementSets = [aSet()];
    renderApp('/account/requirements');
    const row = await setRow('Contractors');
    for (const button of [
      screen.getByRole('button', { name: 'New set' }),
      row.getByRole('button', { name: 'Edit Contractors' }),
      row.getByRole('button', { name: 'Delete Contractors' }),
    ]) {
      expect(button).toBeDisabled();
      expect(button).toHaveAttribute('title', 'Only admins and the owner of your team can change requirement sets.');
    }
  });
});
