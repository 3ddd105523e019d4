import { delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildVendor } from '@/testing/mocks/fixtures';
import { http } from '@/testing/mocks/http';
import { server } from '@/testing/mocks/server';
import { apiError } from '@/testing/mocks/utils';
import { recordGets, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';
import type { Gap, OrgRole } from '@/types/api';

const AUTO: Gap = { line: 'automobile', kind: 'missing_line', message: 'No automobile liability on file.' };
const OCCURRENCE: Gap = {
  line: 'general_liability',
  kind: 'below_minimum',
  limit: 'eachOccurrence',
  required: 1_000_000,
  found: 500_000,
  message: 'General liability each occurrence is $500,000; $1,000,000 is required.',
};

function seed(role: OrgRole = 'member', gaps: Gap[] = [AUTO, OCCURRENCE]) {
  signInAs({ name: 'Mia Member', orgRole: role });
  db.requirementSets = [{ id: 'set-1', name: 'Contractors', lines: [], vendorCount: 1 }];
  db.vendors = [
    buildVendor({
      id: 'AAAAAAA1',
      name: 'Granite Builders',
      requirementSetId: 'set-1',
      gaps: gaps.map((gap) => ({ ...gap })),
      meetsRequirements: gaps.every((g) => g.waived),
    }),
  ];
}

async function panel() {
  const heading = await screen.findByRole('heading', { name: 'Requirements' });
  return within(heading.closest('section, div.rounded-xl, [class*="rounded"]') as HTMLElement);
}

describe('vendor requirements panel', () => {
  it('names the set and lists the gaps in words', async () => {
    seed();
    renderApp('/vendors/AAAAAAA1');
    const requirements = await panel();
    expect(await requirements.findByText('Contractors')).toBeInTheDocument();
    expect(requirements.getByText('Does not meet requirements')).toBeInTheDocument();
    const gaps = within(requirements.getByRole('list', { name: 'Gaps' }));
    expect(gaps.getByText(AUTO.message)).toBeInTheDocument();
    expect(gaps.getByText(OCCURRENCE.message)).toBeInTheDocument();
    expect(gaps.getAllByRole('button', { name: /^Waive:/ })).toHaveLength(2);
  });

  it('says "Meets requirements" when no gap counts, and nothing to meet without a set', async () => {
    seed('member', []);
    const first = renderApp('/vendors/AAAAAAA1');
    expect(await (await panel()).findByText('Meets requirements')).toBeInTheDocument();
    first.unmount();
    db.vendors[0]!.requirementSetId = null;
    renderApp('/vendors/AAAAAAA1');
    expect(await (await panel()).findByText('No requirement set')).toBeInTheDocument();
  });

  it('waives a gap with a reason and an end date, then shows who waived it', async () => {
    seed();
    const { user } = renderApp('/vendors/AAAAAAA1');
    const requirements = await panel();
    await user.click(await requirements.findByRole('button', { name: `Waive: ${AUTO.message}` }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Waive this gap' }));
    await user.click(dialog.getByRole('button', { name: 'Waive gap' }));
    expect(dialog.getByText('Say why this gap is acceptable.')).toBeInTheDocument();
    await user.type(dialog.getByRole('textbox', { name: 'Reason' }), 'Vendor has no vehicles');
    await user.type(dialog.getByLabelText('Waived until'), '2099-12-31');
    await user.click(dialog.getByRole('button', { name: 'Waive gap' }));
    expect(await screen.findByText('Gap waived')).toBeInTheDocument();
    expect(await requirements.findByText('Waived until Dec 31, 2099 by Mia Member: Vendor has no vehicles')).toBeInTheDocument();
    expect(db.vendors[0]!.gaps[0]!.waived).toMatchObject({ reason: 'Vendor has no vehicles', until: '2099-12-31' });
    expect(requirements.getByRole('button', { name: `Withdraw the waiver: ${AUTO.message}` })).toBeInTheDocument();
  });

  it('withdraws a waiver', async () => {
    seed('member', [{ ...AUTO, waived: { id: 'w-1', reason: 'No vehicles', until: '2099-01-01', by: 'Adam Admin' } }]);
    const { user } = renderApp('/vendors/AAAAAAA1');
    const requirements = await panel();
    expect(await requirements.findByText('Meets requirements')).toBeInTheDocument();
    expect(requirements.getByText('Waived until Jan 1, 2099 by Adam Admin: No vehicles')).toBeInTheDocument();
    await user.click(requirements.getByRole('button', { name: /^Withdraw the waiver/ }));
    expect(await screen.findByText('Waiver withdrawn')).toBeInTheDocument();
    expect(await requirements.findByRole('button', { name: `Waive: ${AUTO.message}` })).toBeInTheDocument();
    expect(db.vendors[0]!.gaps[0]!.waived).toBeNull();
  });

  it('leaves a viewer the gaps to read, the buttons disabled with the reason', async () => {
    seed('viewer');
    renderApp('/vendors/AAAAAAA1');
    const requirements = await panel();
    await requirements.findByText(AUTO.message);
    const waive = await requirements.findByRole('button', { name: `Waive: ${AUTO.message}` });
    expect(waive).toBeDisabled();
    expect(waive).toHaveAttribute('title', expect.stringContaining('Viewers can look'));
  });
});

describe('request corrections', () => {
  it('emails the vendor its gaps with a spinner meanwhile, then stays off as "Requested today"', async () => {
    seed();
    db.vendors[0]!.email = 'office@granite.test';
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Held until released, then answered by the mock server's own handler.
    server.use(
      http.post('/api/vendors/{id}/gap-request', async () => {
        await released;
      }),
    );
    const { user } = renderApp('/vendors/AAAAAAA1');
    const requirements = await panel();
    await user.click(await requirements.findByRole('button', { name: 'Request corrections' }));
    const pending = await requirements.findByRole('button', { name: 'Requesting...' });
    expect(pending).toBeDisabled();
    expect(pending).toHaveAttribute('aria-busy', 'true');
    expect(pending.querySelector('svg.animate-spin')).not.toBeNull();
    release();
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Corrections requested');
    expect(status).toHaveTextContent('Emailed office@granite.test the gaps and the portal link.');
    const done = await requirements.findByRole('button', { name: 'Requested today' });
    expect(done).toBeDisabled();
    expect(db.gapRequests).toEqual(['AAAAAAA1']);
  });

  it('says "Already requested today" with the server’s sentence on a second request the same day', async () => {
    seed();
    db.gapRequests = ['AAAAAAA1'];
    const { user } = renderApp('/vendors/AAAAAAA1');
    const requirements = await panel();
    await user.click(await requirements.findByRole('button', { name: 'Request corrections' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Already requested today');
    expect(status).toHaveTextContent('Granite Builders was asked for corrections today already. You can ask again tomorrow.');
    expect(status).toHaveAttribute('data-variant', 'error');
    expect(await requirements.findByRole('button', { name: 'Requested today' })).toBeDisabled();
  });

  it('shows the server’s sentence when there is nothing to correct, and the button stays', async () => {
    seed();
    server.use(
      http.post('/api/vendors/{id}/gap-request', async () => {
        await delay(10);
        return apiError(409, 'nothing_to_correct', 'This vendor meets its requirements: there is nothing to correct.');
      }),
    );
    const { user } = renderApp('/vendors/AAAAAAA1');
    const requirements = await panel();
    await user.click(await requirements.findByRole('button', { name: 'Request corrections' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Could not request corrections');
    expect(status).toHaveTextContent('This vendor meets its requirements: there is nothing to correct.');
    expect(status).toHaveAttribute('data-variant', 'error');
    expect(await requirements.findByRole('button', { name: 'Request corrections' })).toBeEnabled();
  });

  it('is not offered to a viewer, nor when every gap is waived or there is none', async () => {
    seed('viewer');
    const first = renderApp('/vendors/AAAAAAA1');
    let requirements = await panel();
    await requirements.findByText(AUTO.message);
    expect(requirements.queryByRole('button', { name: 'Request corrections' })).not.toBeInTheDocument();
    first.unmount();

    seed('member', [{ ...AUTO, waived: { id: 'w-1', reason: 'No vehicles', until: '2099-01-01', by: 'Adam Admin' } }]);
    const second = renderApp('/vendors/AAAAAAA1');
    requirements = await panel();
    await requirements.findByText('Meets requirements');
    expect(requirements.queryByRole('button', { name: 'Request corrections' })).not.toBeInTheDocument();
    second.unmount();

    seed('member', []);
    renderApp('/vendors/AAAAAAA1');
    requirements = await panel();
    await requirements.findByText('Meets requirements');
    expect(requirements.queryByRole('button', { name: 'Request corrections' })).not.toBeInTheDocument();
  });
});

describe('vendor list gaps', () => {
  it('filters with gaps=true and marks the rows with gaps', async () => {
    seed();
    db.vendors.push(buildVendor({ id: 'BBBBBBB2', name: 'Clean Co' }));
    const gets = recordGets('/api/vendors');
    const { user } = renderApp('/vendors');
    const table = await screen.findByRole('table');
    await within(table).findByText('Clean Co');
    const granite = within(table).getByText('Granite Builders').closest('tr') as HTMLElement;
    expect(within(granite).getByText('2 gaps')).toBeInTheDocument();
    const clean = within(table).getByText('Clean Co').closest('tr') as HTMLElement;
    expect(within(clean).queryByText(/gaps?$/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Filter by status/ }));
    await user.click(await screen.findByRole('option', { name: 'With Gaps' }));
    await waitFor(() => expect(gets.at(-1)).toMatchObject({ gaps: 'true' }));
    expect(gets.at(-1)).not.toHaveProperty('status');
    await waitFor(() => expect(within(table).queryByText('Clean Co')).not.toBeInTheDocument());
    expect(within(table).getByText('Granite Builders')).toBeInTheDocument();
  });
});
