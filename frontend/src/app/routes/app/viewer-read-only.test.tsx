import { describe, expect, it } from 'vitest';
import { VIEWER_REASON, BILLING_REASON } from '@/lib/permissions';
import { db } from '@/testing/mocks/db';
import { buildDocument, buildVendor } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

function seed(orgRole: 'viewer' | 'member' | 'admin') {
  signInAs({ orgRole });
  db.vendors = [buildVendor({ id: 'AAAAAAA1', name: 'Acme Plumbing' })];
  db.documents = [buildDocument({ id: 'doc-1', vendorId: 'AAAAAAA1', fileName: 'w9.pdf' })];
}

describe('a viewer sees the app read-only', () => {
  it('on the vendor list: Add and Import disabled with the reason, no Edit or Delete in the row menu', async () => {
    seed('viewer');
    const { user } = renderApp('/vendors');
    const add = (await screen.findAllByRole('link', { name: 'Add New Vendor' }))[0];
    expect(add).toHaveAttribute('aria-disabled', 'true');
    expect(add).toHaveAttribute('title', VIEWER_REASON);
    const importButton = screen.getByRole('button', { name: 'Import CSV' });
    expect(importButton).toBeDisabled();
    expect(importButton).toHaveAttribute('title', VIEWER_REASON);
    const menus = await screen.findAllByRole('button', { name: 'Actions for Acme Plumbing' });
    await user.click(menus[0]);
    expect(await screen.findByRole('menuitem', { name: 'View Details' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('on a vendor: edit and uploads disabled, no delete or edit of documents', async () => {
    seed('viewer');
    renderApp('/vendors/AAAAAAA1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Plumbing' })).toBeInTheDocument();
    const edit = screen.getByRole('link', { name: 'Edit Vendor' });
    expect(edit).toHaveAttribute('aria-disabled', 'true');
    expect(edit).toHaveAttribute('title', VIEWER_REASON);
    for (const name of ['Upload Document', 'Bulk Upload']) {
      const button = screen.getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAttribute('title', VIEWER_REASON);
    }
    const table = screen.getByRole('table', { name: 'Vendor documents' });
    expect(within(table).getByRole('link', { name: 'View' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('lets a member write', async () => {
    seed('member');
    renderApp('/vendors/AAAAAAA1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Plumbing' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload Document' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Edit Vendor' })).not.toHaveAttribute('aria-disabled');
  });

  it.each(['viewer', 'member'] as const)('leaves billing to admins: a %s cannot upgrade', async (role) => {
    seed(role);
    renderApp('/billing');
    const upgrade = await screen.findByRole('button', { name: 'Upgrade Now' });
    expect(upgrade).toBeDisabled();
    expect(upgrade).toHaveAttribute('title', BILLING_REASON);
  });

  it('lets an admin upgrade', async () => {
    seed('admin');
    renderApp('/billing');
    await waitFor(async () => expect(await screen.findByRole('button', { name: 'Upgrade Now' })).toBeEnabled());
  });
});
