import type {
  ActivityEntry,
  BlogPost,
  ComplianceReport,
  CompliancePoint,
  ExpirationsReport,
  NonCompliantVendor,
  Reminder,
  ReportDays,
  ResponsivenessRow,
  Vendor,
  VendorDocument,
  VendorSlot,
} from '@/types/api';

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
    requirementSetId: null,
    gaps: [],
    meetsRequirements: true,
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
    isCurrent: true,
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
    actor: { id: 'user-1', name: 'Ann Owner' },
    source: 'user',
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

/** YYYY-MM-DD, `offset` days after `start` (UTC calendar arithmetic). */
function isoDay(start: string, offset: number): string {
  const date = new Date(`${start}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
}

export function buildCompliancePoint(date: string, overrides: Partial<CompliancePoint> = {}): CompliancePoint {
  return {
    date,
    vendorsCurrent: 3,
    vendorsExpiringSoon: 1,
    vendorsExpired: 0,
    vendorsMissing: 1,
    documentsCurrent: 12,
    documentsExpiringSoon: 2,
    documentsExpired: 0,
    complianceRate: 60,
    ...overrides,
  };
}

/**
 * A period of `days` daily snapshots ending on `end`; the given days have none (they are in
 * missingDays). The number of current vendors grows by one every ten days.
 */
export function buildComplianceReport({
  days = 30,
  end = '2025-03-31',
  missing = [],
  rate = { current: 75, start: 60, change: 15 },
}: {
  days?: ReportDays;
  end?: string;
  missing?: string[];
  rate?: ComplianceReport['rate'];
} = {}): ComplianceReport {
  const start = isoDay(end, -(days - 1));
  const points: CompliancePoint[] = [];
  for (let i = 0; i < days; i += 1) {
    const date = isoDay(start, i);
    if (missing.includes(date)) continue;
    points.push(buildCompliancePoint(date, { vendorsCurrent: 3 + Math.floor(i / 10) }));
  }
  return { days, points, missingDays: [...missing].sort(), rate };
}

export function buildExpirationsReport(): ExpirationsReport {
  const weeks = Array.from({ length: 12 }, (_, i) => ({
    weekStart: isoDay('2025-03-31', i * 7),
    weekEnd: isoDay('2025-03-31', i * 7 + 6),
    count: 0,
    vendors: [] as ExpirationsReport['weeks'][number]['vendors'],
  }));
  weeks[0] = {
    ...weeks[0],
    count: 2,
    vendors: [
      {
        id: 'VEND0001',
        name: 'Acme Plumbing',
        documents: [
          { id: 'doc-a1', label: 'COI - General', expirationDate: '2025-04-02' },
          { id: 'doc-a2', label: 'W-9 Form', expirationDate: '2025-04-04' },
        ],
      },
    ],
  };
  weeks[2] = {
    ...weeks[2],
    count: 1,
    vendors: [
      {
        id: 'VEND0002',
        name: 'Bolt Electrical',
        documents: [{ id: 'doc-b1', label: 'COI - Auto', expirationDate: '2025-04-16' }],
      },
    ],
  };
  return { weeks };
}

export function buildNonCompliantVendors(): NonCompliantVendor[] {
  return [
    {
      id: 'VEND0002',
      name: 'Bolt Electrical',
      serviceType: 'electrical',
      status: 'expiring_soon',
      reasons: ['expiring_soon:coi_automobile'],
      gaps: [],
      waived: ['No automobile liability on file. Waived by Ann Admin until Dec 31, 2099: No vehicles on site'],
    },
    {
      id: 'VEND0001',
      name: 'Acme Plumbing',
      serviceType: 'plumbing',
      status: 'expired',
      reasons: ['expired:coi_general_liability', 'missing:w9'],
      gaps: [],
      waived: [],
    },
    {
      id: 'VEND0003',
      name: 'Clean Co',
      serviceType: 'cleaning',
      status: 'missing',
      reasons: ['no_documents'],
      gaps: [],
      waived: [],
    },
    {
      id: 'VEND0004',
      name: 'Dune Hauling',
      serviceType: 'other',
      status: 'current',
      reasons: [],
      gaps: ['No automobile liability on file.'],
      waived: [],
    },
  ];
}

export function buildResponsivenessRows(): ResponsivenessRow[] {
  return [
    {
      vendorId: 'VEND0001',
      vendorName: 'Acme Plumbing',
      documentLabel: 'W-9 Form',
      requestedAt: '2025-03-01T15:00:00Z',
      uploadedAt: '2025-03-04T10:00:00Z',
      daysToUpload: 3,
    },
    {
      vendorId: 'VEND0002',
      vendorName: 'Bolt Electrical',
      documentLabel: 'COI - General',
      requestedAt: '2025-03-10T15:00:00Z',
      uploadedAt: null,
      daysToUpload: null,
    },
  ];
}

let blogSequence = 0;

/** A blog post; `published` and `status` follow each other unless both are given. */
export function buildBlogPost(overrides: Partial<BlogPost> = {}): BlogPost {
  blogSequence += 1;
  const published = overrides.published ?? overrides.status === 'published';
  const slug = overrides.slug ?? `post-${blogSequence}`;
  return {
    id: blogSequence,
    slug,
    title: `Post ${blogSequence}`,
    excerpt: 'A short summary of the post.',
    content: '## Why it matters\n\nKeep your **certificates** current.',
    author: 'Vendorwatch',
    tags: ['compliance'],
    status: published ? 'published' : 'draft',
    published,
    readTime: 4,
    views: 0,
    metaTitle: null,
    metaDescription: null,
    createdAt: '2025-01-10T12:00:00Z',
    updatedAt: '2025-01-10T12:00:00Z',
    publishedAt: published ? '2025-01-11T12:00:00Z' : null,
    ...overrides,
  };
}
