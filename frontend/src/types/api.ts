/** Shapes of the HTTP contract (the server publishes it at GET /api/openapi.json). */

export type Role = 'user' | 'admin';
export type Plan = 'free' | 'professional';

export type User = {
  id: string;
  name: string;
  email: string;
  company: string | null;
  role: Role;
  plan: Plan;
  /** Sends the weekly summary email (PUT /api/account/preferences). */
  weeklySummary?: boolean;
  /** The organization's IANA time zone: its "today" and its emails' morning (PUT /api/account/organization). */
  timeZone?: string;
};

export type AuthResponse = {
  token: string;
  user: User;
};

/** The error envelope every non-2xx `/api/*` response carries. */
export type ErrorEnvelope = {
  error: string;
  message: string;
  errors?: Record<string, string[]>;
};

export type DocumentStatus = 'missing' | 'current' | 'expiring_soon' | 'expired';
export type DocumentType = 'coi' | 'w9' | 'sales_tax' | 'vendor_agreement' | 'other';
export type CoiType = 'general_liability' | 'workers_comp' | 'automobile';
export type SlotKey =
  'w9' | 'coi_general_liability' | 'coi_workers_comp' | 'coi_automobile' | 'sales_tax' | 'vendor_agreement' | 'other';

export type VendorSlot = {
  slot: SlotKey;
  label: string;
  status: DocumentStatus;
  documentId?: string | null;
};

export type VendorDocument = {
  id: string;
  vendorId: string;
  /** The vendor's name. */
  vendor?: string | null;
  fileName: string;
  documentType: DocumentType;
  coiType: CoiType | null;
  uploadedAt: string;
  expirationDate: string | null;
  status: DocumentStatus;
  notes: string | null;
  contentType?: string | null;
  size?: number | null;
  version?: number;
  source?: 'user' | 'vendor_portal';
};

/** GET /api/documents/{id}/view-link: a path on this server that works without a token until expiresAt. */
export type ViewLink = {
  url: string;
  expiresAt: string;
};

export type Vendor = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  serviceType: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  notes: string | null;
  companyKey: string;
  requiredDocuments: SlotKey[];
  createdAt: string;
  updatedAt: string;
  documentStatus: DocumentStatus;
  documentCount: number;
  slots: VendorSlot[];
  documents?: VendorDocument[];
};

/** Body of POST/PUT /api/vendors. */
export type VendorInput = {
  name: string;
  email: string;
  serviceType: string;
  phone?: string;
  address?: string;
  city?: string;
  state?: string;
  zipCode?: string;
  notes?: string;
  companyKey?: string;
  requiredDocuments?: SlotKey[];
};

export type PaymentStatus = {
  plan: Plan;
  currentVendorCount: number;
  vendorLimit: number;
  documentLimitPerVendor?: number | null;
  /** False when the server has no Stripe key: nobody can pay online. */
  billingEnabled: boolean;
  /** RFC 3339: the next renewal of a running subscription. */
  renewsAt: string | null;
  /** RFC 3339: the subscription ends then and the plan returns to Free. */
  cancelAt: string | null;
  /** A sentence from the server, e.g. the last payment failed. */
  paymentProblem: string | null;
};

/** 200 of POST /api/create-subscription: the Stripe Checkout page to send the browser to. */
export type CheckoutSession = {
  url?: string | null;
};

/** 200 of POST /api/upgrade-to-professional, sent only once Stripe confirmed the payment. */
export type UpgradeResult = {
  success: true;
  plan: 'professional';
};

/** 200 of POST /api/billing/portal: the Stripe customer portal. */
export type BillingPortalSession = {
  url: string;
};

/** 200 of GET /api/dashboard/stats: the stat cards' and the charts' figures. */
export type DashboardStats = {
  totalVendors: number;
  compliantVendors: number;
  expiringVendors: number;
  nonCompliantVendors: number;
  documentsByStatus: DocumentsByStatus;
  /** Current documents expiring in each of the 13 weeks from today (7 days each). */
  expirationsNext90Days: ExpirationWeekCount[];
  /** Current documents expiring from today through day 89, in six spans of 15 days. */
  upcomingExpirations: ExpirationSpan[];
};

/** The current documents by status; `missing` counts each vendor's requested slots holding no current document. */
export type DocumentsByStatus = {
  current: number;
  expiringSoon: number;
  expired: number;
  missing: number;
};

export type ExpirationWeekCount = {
  /** YYYY-MM-DD. */
  weekStart: string;
  count: number;
};

export type ExpirationSpan = {
  /** First day, YYYY-MM-DD. */
  start: string;
  /** Last day, YYYY-MM-DD, included. */
  end: string;
  count: number;
};

export type ActivityType =
  | 'vendor_created'
  | 'vendor_updated'
  | 'vendor_deleted'
  | 'document_uploaded'
  | 'document_updated'
  | 'document_deleted'
  | 'document_expired'
  | 'plan_changed';

export type ActivityEntry = {
  id: string;
  /** One of ActivityType; unknown values get a default icon. */
  activityType: string;
  description: string;
  createdAt: string;
  vendorId?: string | null;
  documentId?: string | null;
};

export type Reminder = {
  id: string;
  reminderDate: string;
  sent: boolean;
  sentAt?: string | null;
  document: {
    id: string;
    vendor: string | null;
    vendorId: string;
    documentType: DocumentType;
    fileName: string;
    expirationDate: string | null;
    status: DocumentStatus;
  };
};

/** One document type the client asks a vendor for on the upload portal. */
export type RequestedDocument = {
  slot: SlotKey;
  documentType: DocumentType;
  coiType: CoiType | null;
  label: string;
  /** A valid (not expired) document is already on file for it. */
  uploaded: boolean;
};

/** 200 of GET /api/validate-company-key: all the portal reveals. */
export type PortalVendor = {
  valid: boolean;
  /** The vendor's name. */
  companyName: string;
  /** The organization that invited the vendor. */
  clientName: string;
  requiredDocuments: RequestedDocument[];
  /** Sent with `valid: false`. */
  message?: string;
};

/** 201 of POST /api/vendor-upload-document. */
export type PortalUploadResponse = {
  companyName: string;
  document: Pick<VendorDocument, 'id' | 'documentType' | 'coiType' | 'fileName' | 'expirationDate' | 'status'>;
};

/** Body of the bulk calls (documents archive and bulk-delete, vendors renewal-requests and bulk-delete): at most 500 ids. */
export type BulkIdsInput = {
  ids: string[];
};

/** 200 of POST /api/documents/bulk-delete and /api/vendors/bulk-delete (all or nothing). */
export type BulkDeleteResult = {
  deleted: number;
};

export type RenewalSkipReason = 'already_requested_today';

/** 200 of POST /api/vendors/renewal-requests: who was emailed, who was left out and why. */
export type RenewalRequestResult = {
  sent: string[];
  skipped: { id: string; reason: RenewalSkipReason }[];
};

export type VendorImportStatus = 'create' | 'error' | 'duplicate';

/** One data line of an imported CSV file, as the server judged it. */
export type VendorImportRow = {
  /** The line in the file (the header is line 1). */
  line: number;
  status: VendorImportStatus;
  name: string;
  email: string;
  /** Why the row will not be created (empty for `create`). */
  errors: string[];
};

/** Body of POST /api/vendors/import: a dry run (`commit: false`) or the import itself. */
export type VendorImportInput = {
  csv: string;
  commit: boolean;
};

/** 200 of POST /api/vendors/import: `created` is 0 on a dry run. */
export type VendorImportResult = {
  rows: VendorImportRow[];
  wouldCreate: number;
  created: number;
};

/** The reporting windows of GET /api/reports/compliance. */
export type ReportDays = 30 | 90 | 365;

/** One day's snapshot of the organization's compliance. */
export type CompliancePoint = {
  /** YYYY-MM-DD. */
  date: string;
  vendorsCurrent: number;
  vendorsExpiringSoon: number;
  vendorsExpired: number;
  vendorsMissing: number;
  documentsCurrent: number;
  documentsExpiringSoon: number;
  documentsExpired: number;
  /** Current vendors out of all vendors, in percent (0-100); null without vendors. */
  complianceRate: number | null;
};

/** 200 of GET /api/reports/compliance: daily snapshots; days without one are in missingDays. */
export type ComplianceReport = {
  days: ReportDays;
  points: CompliancePoint[];
  /** YYYY-MM-DD days of the period with no snapshot: gaps, never to be filled in. */
  missingDays: string[];
  rate: {
    /** Percent (0-100). */
    current: number | null;
    start: number | null;
    /** Percentage points between start and current. */
    change: number | null;
  };
};

export type ExpiringDocument = { id: string; label: string; expirationDate: string };

export type ExpirationWeek = {
  /** YYYY-MM-DD. */
  weekStart: string;
  weekEnd: string;
  count: number;
  vendors: { id: string; name: string; documents: ExpiringDocument[] }[];
};

/** 200 of GET /api/reports/expirations: the next 12 weeks. */
export type ExpirationsReport = { weeks: ExpirationWeek[] };

export type NonCompliantStatus = 'missing' | 'expiring_soon' | 'expired';

/** One row of GET /api/reports/non-compliant. */
export type NonCompliantVendor = {
  id: string;
  name: string;
  serviceType: string;
  status: NonCompliantStatus;
  reasons: string[];
};

/** One row of GET /api/reports/responsiveness: a document requested from a vendor. */
export type ResponsivenessRow = {
  vendorId: string;
  vendorName: string;
  documentLabel: string;
  /** RFC 3339. */
  requestedAt: string;
  uploadedAt: string | null;
  daysToUpload: number | null;
};

/** Body of PUT /api/account/preferences; the answer is the updated user. */
export type PreferencesInput = { weeklySummary: boolean };

/** Body of PUT /api/account/organization; the answer is the updated user. */
export type OrganizationSettingsInput = { timeZone: string };

export type BlogPostStatus = 'draft' | 'published';

/** A blog post as the admin calls return it (GET/POST/PUT /api/admin/blog-posts). */
export type BlogPost = {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  /** Markdown. */
  content: string;
  author: string;
  tags: string[];
  status: BlogPostStatus;
  published: boolean;
  /** Minutes. */
  readTime: number;
  views: number;
  metaTitle: string | null;
  metaDescription: string | null;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
};

/** 200 of GET /api/admin/blog-stats. */
export type BlogStats = { posts: number; published: number; drafts: number; views: number };

/** Body of POST /api/admin/blog-posts and of the editor's PUT /api/admin/blog-posts/{id}. */
export type BlogPostInput = {
  title: string;
  content: string;
  excerpt?: string;
  tags?: string[];
  metaTitle?: string | null;
  metaDescription?: string | null;
  published?: boolean;
  slug?: string;
};

/** One published post in GET /api/blog-posts (no content). */
export type PublicBlogPostSummary = Pick<
  BlogPost,
  | 'id'
  | 'slug'
  | 'title'
  | 'excerpt'
  | 'author'
  | 'tags'
  | 'readTime'
  | 'createdAt'
  | 'updatedAt'
  | 'publishedAt'
  | 'views'
  | 'metaTitle'
  | 'metaDescription'
>;

/** 200 of GET /api/blog-posts/{slug}: the Markdown and the server's sanitised HTML. */
export type PublicBlogPost = PublicBlogPostSummary & { content: string; html: string };

/** 200 of POST /api/admin/blog-posts/preview. */
export type BlogPreview = { html: string };

/** A page of a list whose total comes in the X-Total-Count header. */
export type Page<T> = { items: T[]; total: number };

/** 200 of GET /api/admin/keywords/count. */
export type KeywordCount = { count: number };

/** One CSV row as POST /api/admin/keywords/upload takes it: the file's text, trimmed (the server checks it). */
export type KeywordRow = {
  keyword: string;
  searchVolume: string;
  difficulty: string;
  priority: string;
  category: string;
};

/** 202 of POST /api/admin/keywords/upload: the rows are being ingested by background jobs. */
export type KeywordUploadAccepted = { accepted: number; dropped: number; chunks: number; ingestId: number };

/** 200 of GET /api/admin/keyword-ingests/{id}: how far one upload's ingest is. */
export type KeywordIngest = {
  id: number;
  accepted: number;
  dropped: number;
  chunks: number;
  chunksDone: number;
  /** New keywords. */
  inserted: number;
  /** Rows that matched a keyword already there (whatever its case). */
  merged: number;
  done: boolean;
};

/** 200 of GET /api/admin/content-stats. */
export type ContentStats = {
  aiConfigured: boolean;
  aiModel: string | null;
  keywords: number;
  unusedKeywords: number;
  generationsThisMonth: number;
  /** USD. */
  generationCostThisMonth: number;
};

export type ContentTone = 'professional' | 'friendly' | 'authoritative' | 'conversational' | 'educational';

/** Body of POST /api/admin/generate-content; the answer is 202 {jobId}. */
export type GenerateContentInput = {
  targetKeywords: string[];
  category?: string;
  tone?: ContentTone;
  wordCount?: number;
};

export type GenerationJobStatus = 'scheduled' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** An AI draft being written, written or not (GET /api/admin/generation-jobs[/{id}]). */
export type GenerationJob = {
  id: number;
  status: GenerationJobStatus;
  keywords: string[];
  category: string;
  tone: string;
  wordCount: number;
  /** RFC 3339; set for the weekly plan's posts. */
  scheduledFor: string | null;
  postId: number | null;
  postSlug: string | null;
  /** Why it failed, for people. */
  error: string | null;
  model: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  /** USD. */
  cost: number | null;
  createdAt: string;
  finishedAt: string | null;
};

export type PostsPerWeek = 3 | 5 | 7;

export type WeeklyPlanItem = {
  jobId: number;
  keyword: string;
  /** RFC 3339. */
  scheduledFor: string;
  status: GenerationJobStatus;
  postId: number | null;
};

/** The weekly automation: posts scheduled as generation jobs. */
export type WeeklyPlan = {
  id: number;
  postsPerWeek: number;
  /** USD: 9, 15 or 21. */
  monthlyCost: number;
  status: 'active' | 'cancelled' | 'finished';
  createdAt: string;
  plan: WeeklyPlanItem[];
};
