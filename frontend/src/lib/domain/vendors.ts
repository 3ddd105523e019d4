import type { DocumentStatus, Vendor } from '@/types/api';

/** A status, or 'gaps': the vendors whose certificates fall short of their requirement set. */
export type VendorStatusFilter = 'all' | DocumentStatus | 'gaps';

/** The status filter of the dashboard and vendor list. */
export const VENDOR_STATUS_OPTIONS: { value: VendorStatusFilter; label: string }[] = [
  { value: 'all', label: 'All Statuses' },
  { value: 'current', label: 'Current' },
  { value: 'expiring_soon', label: 'Expiring Soon' },
  { value: 'expired', label: 'Expired' },
  { value: 'missing', label: 'Missing Documents' },
  { value: 'gaps', label: 'With Gaps' },
];

/** 'Street, City, ST 12345' from whatever parts exist. */
export function formatAddress(vendor: Pick<Vendor, 'address' | 'city' | 'state' | 'zipCode'>): string {
  const region = [vendor.state, vendor.zipCode].filter(Boolean).join(' ');
  return [vendor.address, vendor.city, region].filter(Boolean).join(', ');
}
