import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { slots } from '@/testing/mocks/fixtures';
import { SlotDots, normalizeSlots } from './slot-dots';
import { StatusBadge } from './status-badge';

describe('StatusBadge', () => {
  it.each([
    ['current', 'Current'],
    ['expiring_soon', 'Expiring Soon'],
    ['expired', 'Expired'],
    ['missing', 'Missing'],
  ])('%s reads %s', (status, label) => {
    render(<StatusBadge status={status} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });

  it('shows an unknown status as it is', () => {
    render(<StatusBadge status="archived" />);
    expect(screen.getByText('archived')).toBeInTheDocument();
  });
});

describe('SlotDots', () => {
  it('shows seven dots in slot order, W-9 first and Other last, with their statuses', () => {
    render(<SlotDots slots={slots({ w9: 'current', coi_workers_comp: 'expired', sales_tax: 'expiring_soon' })} />);
    const items = within(screen.getByRole('list', { name: 'Document slots' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'W-9 Form: Current',
      'COI - General: Missing',
      'COI - Workers: Expired',
      'COI - Auto: Missing',
      'Sales Tax Certificate: Expiring Soon',
      'Vendor Agreement: Missing',
      'Other Documents: Missing',
    ]);
    expect(items[0]).toHaveAttribute('data-status', 'current');
  });

  it('treats slots the server left out as missing', () => {
    const result = normalizeSlots([{ slot: 'other', label: 'Other Documents', status: 'current' }]);
    expect(result).toHaveLength(7);
    expect(result.filter((s) => s.status === 'missing')).toHaveLength(6);
    expect(result[6]).toMatchObject({ slot: 'other', status: 'current' });
    expect(normalizeSlots(undefined).every((s) => s.status === 'missing')).toBe(true);
  });
});
