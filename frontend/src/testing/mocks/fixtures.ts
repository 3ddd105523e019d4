import type { ActivityEntry, Reminder, Vendor, VendorDocument, VendorSlot } from '@/types/api';

const SLOT_LABELS: [VendorSlot['slot'], string][] = [
  ['w9', 'W-9 Form'],
  ['coi_general_liability', 'COI - General'],
  ['coi_workers_comp', 'COI - Workers'],
  ['coi_automobile', 'COI - Auto'],
  ['sales_tax', 'Sales Tax Certificate'],
  ['vendor_agreement', 'Vendor Agreement'],
  ['other', 'Other Documents'],
];

export function slots(statuses: Partial<Record<VendorSlot['slot'], VendorSlot['status']>> = {}): VendorSlot[] {
  return SLOT_LABELS.map(([slot, label]) => ({ slot, label, status: statuses[slot] ?? 'missing' }));
}

let seq = 0;
const nextId = (prefix: string) => `${prefix}${(++seq).toString().padStart(6, '0')}`;

export function buildVendor(overrides: Partial<Vendor> = {}): Vendor {
  const id = overrides.id ?? `V${nextId('').slice(-7)}`;
  return {
    id,
    name: 'Acme Plumbing',
    email: 'office@acme.test',
    phone: '555-0100',
    serviceType: 'plumbing',
    address: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    notes: null,
    companyKey: id,
    requiredDocuments: ['w9', 'coi_general_liability', 'coi_workers_comp', 'coi_automobile', 'sales_tax', 'vendor_agreement'],
    createdAt: '2025-01-05T15:07:00Z',
    updatedAt: '2025-01-06T10:00:00Z',
    documentStatus: 'missing',
    documentCount: 0,
    slots: slots(),
    documents: [],
    ...overrides,
  };
}

export function buildDocument(overrides: Partial<VendorDocument> = {}): VendorDocument {
  return {
    id: nextId('doc-'),
    vendorId: 'VEND0001',
    vendor: 'Acme Plumbing',
    fileName: 'w9.pdf',
    documentType: 'w9',
    coiType: null,
    uploadedAt: '2025-01-05T15:07:00Z',
    expirationDate: null,
    status: 'current',
    notes: null,
    contentType: 'application/pdf',
    size: 1234,
    version: 1,
    source: 'user',
    ...overrides,
  };
}

export function buildActivity(overrides: Partial<ActivityEntry> = {}): ActivityEntry {
  return {
    id: nextId('act-'),
    activityType: 'vendor_created',
    description: 'Vendor Acme Plumbing was added',
    createdAt: '2025-01-05T15:07:00Z',
    ...overrides,
  };
}

export function buildReminder(overrides: Partial<Reminder> = {}): Reminder {
  return {
    id: nextId('rem-'),
    reminderDate: '2025-03-01',
    sent: false,
    sentAt: null,
    document: {
      id: 'doc-1',
      vendor: 'Acme Plumbing',
      vendorId: 'VEND0001',
      documentType: 'coi',
      fileName: 'coi.pdf',
      expirationDate: '2025-03-31',
      status: 'current',
    },
    ...overrides,
  };
}
