/**
 * The screens' names for the shapes of the HTTP contract. Every shape the server sends or takes
 * is generated from its OpenAPI document into `openapi.d.ts` (`scripts/gen-api`); this file
 * only names them, and spells out the few vocabularies the document leaves as plain strings.
 */
import type { components } from './openapi';

type Schemas = components['schemas'];

/**
 * A generated shape with some plain-string fields narrowed to the values the server sends. The
 * document states these as `string` because the server keeps them as string constants (issue
 * 30, item 2, makes them enums); drop each override once the document names the values.
 */
type Narrow<T, Fields extends Partial<Record<keyof T, unknown>>> = Omit<T, keyof Fields> & Fields;

export type Role = Schemas['PlatformRole'];
export type Plan = Schemas['Plan'];

export type User = Schemas['UserResponse'];
export type AuthResponse = Narrow<Schemas['LoginResponse'], { user: User }>;

/** The error envelope every non-2xx `/api/*` response carries. */
export type ErrorEnvelope = Schemas['Envelope'];

export type DocumentStatus = Schemas['Status'];
export type DocumentType = Schemas['DocumentType'];
export type CoiType = Schemas['CoiType'];
export type SlotKey = Schemas['Slot'];
export type ServiceType = Schemas['ServiceType'];

export type DocumentSource = Schemas['DocumentSource'];
export type VendorSlot = Narrow<Schemas['SlotResponse'], { slot: SlotKey }>;
export type VendorDocument = Narrow<Schemas['DocumentResponse'], { documentType: DocumentType; coiType?: CoiType | null }>;
/** 200 of GET /api/documents/{id}: the document and all its versions, newest first. */
export type DocumentWithHistory = VendorDocument & { history: VendorDocument[] };

/** GET /api/documents/{id}/view-link: a path on this server that works without a token until expiresAt. */
export type ViewLink = Schemas['ViewLinkResponse'];

export type Vendor = Narrow<
  Schemas['VendorResponse'],
  { requiredDocuments: SlotKey[]; slots: VendorSlot[]; documents?: VendorDocument[] | null }
>;
/** Body of POST/PUT /api/vendors. */
export type VendorInput = Schemas['VendorParams'];

export type PaymentStatus = Schemas['PaymentStatus'];
/** 200 of POST /api/create-subscription and POST /api/billing/portal: the Stripe page to send the browser to. */
export type RedirectUrl = Schemas['RedirectUrl'];
/** 200 of POST /api/upgrade-to-professional, sent only once Stripe confirmed the payment. */
export type UpgradeResult = Schemas['UpgradeResponse'];

/** 200 of GET /api/dashboard/stats: the stat cards' and the charts' figures. */
export type DashboardStats = Schemas['DashboardStats'];
export type DocumentsByStatus = Schemas['DocumentsByStatus'];
export type ExpirationWeekCount = Schemas['ExpirationBucket'];
export type ExpirationSpan = Schemas['ExpirationSpan'];

/** The kinds of activity the server records; unknown values get a default icon. */
export type ActivityType =
  | 'vendor_created'
  | 'vendor_updated'
  | 'vendor_deleted'
  | 'document_uploaded'
  | 'document_updated'
  | 'document_deleted'
  | 'document_expired'
  | 'plan_changed'
  | 'gap_waived';
export type ActivityEntry = Schemas['ActivityResponse'];

export type Reminder = Narrow<
  Schemas['ReminderResponse'],
  { document: Narrow<Schemas['ReminderDocument'], { documentType: DocumentType }> }
>;

/** One document type the client asks a vendor for on the upload portal. */
export type RequestedDocument = Narrow<
  Schemas['RequestedDocument'],
  { slot: SlotKey; documentType: DocumentType; coiType?: CoiType | null }
>;
/** 200 of GET /api/validate-company-key: all the portal reveals. */
export type PortalVendor = Narrow<Schemas['PortalVendor'], { requiredDocuments: RequestedDocument[] }>;
/** 201 of POST /api/vendor-upload-document. */
export type PortalUploadResponse = Narrow<
  Schemas['PortalUploadResponse'],
  { document: Narrow<Schemas['PortalDocument'], { documentType: DocumentType; coiType?: CoiType | null }> }
>;

/** Body of the bulk calls: at most 500 ids. */
export type BulkIdsInput = Schemas['BulkIds'];
/** 200 of POST /api/documents/bulk-delete and /api/vendors/bulk-delete (all or nothing). */
export type BulkDeleteResult = Schemas['Deleted'];
export type RenewalSkipReason = 'already_requested_today';
/** 200 of POST /api/vendors/renewal-requests: who was emailed, who was left out and why. */
export type RenewalRequestResult = Narrow<Schemas['RenewalRequests'], { skipped: { id: string; reason: RenewalSkipReason }[] }>;

export type VendorImportStatus = 'create' | 'error' | 'duplicate';
/** One data line of an imported file, as the server judged it, with every problem it has. */
export type VendorImportRow = Narrow<Schemas['ImportRow'], { status: VendorImportStatus }>;
/** A vendor field a column of an imported file can fill. */
export type VendorImportField = Schemas['ImportField'];
/** A column of an imported file: its header, the field it fills (null: ignored) and a sample value. */
export type VendorImportColumn = Schemas['ImportColumn'];
/** The fields an import gives every row that lacks them (a service type, a requirement set). */
export type VendorImportDefaults = Schemas['ImportDefaults'];
/** What the plan allows, stated by an import's preview. */
export type VendorLimit = Schemas['VendorLimit'];
/**
 * 200 of POST /api/vendors/import (multipart: the file's bytes, `commit`, `mapping`, `defaults`):
 * how the file was read, its columns, every row; `created` is 0 on a dry run.
 */
export type VendorImportResult = Narrow<Schemas['ImportResult'], { rows: VendorImportRow[] }>;

/** The reporting windows of GET /api/reports/compliance. */
export type ReportDays = 30 | 90 | 365;
/** One day's snapshot of the organization's compliance. */
export type CompliancePoint = Schemas['TrendPoint'];
/** 200 of GET /api/reports/compliance: daily snapshots; days without one are in missingDays. */
export type ComplianceReport = Schemas['ComplianceTrend'];
export type ExpiringDocument = Schemas['ExpiringDocument'];
export type ExpirationWeek = Schemas['ExpirationWeek'];
/** 200 of GET /api/reports/expirations: the next 12 weeks. */
export type ExpirationsReport = Schemas['ExpirationReport'];
/** A vendor of the non-compliant report: not current, or current with requirement gaps. */
export type NonCompliantStatus = DocumentStatus;
/** One row of GET /api/reports/non-compliant. */
export type NonCompliantVendor = Narrow<Schemas['NonCompliantVendor'], { status: NonCompliantStatus }>;
/** One row of GET /api/reports/responsiveness: a document requested from a vendor. */
export type ResponsivenessRow = Schemas['Responsiveness'];

/** Body of PUT /api/account/preferences; the answer is the updated user. */
export type PreferencesInput = Schemas['Preferences'];
/** Body of PUT /api/account/organization; the answer is the updated user. */
export type OrganizationSettingsInput = Schemas['OrganizationSettings'];
/** A time zone as the server knows it: one of the tz database's names. */
export type TimeZoneName = OrganizationSettingsInput['timeZone'];

export type BlogPostStatus = Schemas['PostStatus'];
/** A blog post as the admin calls return it (GET/POST/PUT /api/admin/blog-posts). */
export type BlogPost = Schemas['AdminPost'];
/** 200 of GET /api/admin/blog-stats. */
export type BlogStats = Schemas['BlogStats'];
/** Body of POST /api/admin/blog-posts and of the editor's PUT /api/admin/blog-posts/{id}. */
export type BlogPostInput = Schemas['PostFields'];
/** One published post in GET /api/blog-posts (no content). */
export type PublicBlogPostSummary = Schemas['PublicPostSummary'];
/** 200 of GET /api/blog-posts/{slug}: the Markdown and the server's sanitised HTML. */
export type PublicBlogPost = Schemas['PublicPost'];
/** 200 of POST /api/admin/blog-posts/preview. */
export type BlogPreview = Schemas['PostPreview'];

/** A page of a list whose total comes in the X-Total-Count header. */
export type Page<T> = { items: T[]; total: number };

/** 200 of GET /api/admin/keywords/count. */
export type KeywordCount = Schemas['KeywordCount'];
/** One CSV row as POST /api/admin/keywords/upload takes it (the server checks it). */
export type KeywordRow = Schemas['KeywordRow'];
/** 202 of POST /api/admin/keywords/upload: the rows are being ingested by background jobs. */
export type KeywordUploadAccepted = Schemas['UploadAccepted'];
/** 200 of GET /api/admin/keyword-ingests/{id}: how far one upload's ingest is. */
export type KeywordIngest = Schemas['IngestProgress'];

/** 200 of GET /api/admin/content-stats. */
export type ContentStats = Schemas['ContentStats'];
export type ContentTone = 'professional' | 'friendly' | 'authoritative' | 'conversational' | 'educational';
/** Body of POST /api/admin/generate-content; the answer is 202 {jobId}. */
export type GenerateContentInput = Schemas['GenerateFields'];
export type GenerationJobStatus = Schemas['JobStatus'];
/** An AI draft being written, written or not (GET /api/admin/generation-jobs[/{id}]). */
export type GenerationJob = Schemas['GenerationJob'];
export type PostsPerWeek = Schemas['PostsPerWeek'];
export type WeeklyPlanItem = Schemas['PlanItem'];
/** The weekly automation: posts scheduled as generation jobs. */
export type WeeklyPlan = Schemas['WeeklyPlan'];

/** A person's role in their organization (docs/product.md, Teams). */
export type OrgRole = Schemas['OrgRole'];
/** A person of the organization, on the Team page. */
export type TeamMember = Schemas['MemberResponse'];
/** A pending invitation. */
export type Invitation = Schemas['InvitationResponse'];
/** What an invitation's link offers, before the account is made. */
export type InvitationPreview = Schemas['InvitationPreview'];

/** A line of insurance a requirement set or a certificate names. */
export type CoverageLineKey = Schemas['Line'];
/** One line of a requirement set: minimums in whole dollars by limit, and the endorsements asked for. */
export type RequirementLine = Schemas['RequirementLine'];
/** A requirement set (GET /api/requirement-sets). */
export type RequirementSet = Schemas['RequirementSetResponse'];
/** A starting point for a new set (GET /api/requirement-sets/templates). */
export type RequirementTemplate = Schemas['Template'];
/** One line of the set form as sent: amounts as typed ("$1M") or numbers. */
export type RequirementLineInput = Omit<Schemas['LineForm'], 'minimums' | 'line'> & {
  line: CoverageLineKey;
  minimums: Record<string, string | number>;
};
/** Body of POST/PUT /api/requirement-sets. */
export type RequirementSetInput = { name: string; lines: RequirementLineInput[] };
export type GapKind = Schemas['GapKind'];
/** One gap of a vendor against its set, in words; `waived` when a waiver stops it counting. */
export type Gap = Schemas['Gap'];
/** Body of POST /api/vendors/{id}/waivers. */
export type WaiverInput = Schemas['WaiverForm'];
export type WaiverResponse = Schemas['WaiverResponse'];
/** What a certificate shows, as stored (amounts in whole dollars). */
export type Coverage = Schemas['CoverageResponse'];
export type CoverageLine = Schemas['CoverageLine'];
/** One line of the coverage form as sent: limits as typed. */
export type CoverageLineInput = Omit<Schemas['CoverageLineForm'], 'limits' | 'line'> & {
  line: CoverageLineKey;
  limits: Record<string, string | number>;
};
/** Body of PUT /api/documents/{id}/coverage. */
export type CoverageInput = Omit<Schemas['CoverageForm'], 'lines'> & { lines: CoverageLineInput[] };
/** Who said what a certificate shows: entered by hand, or read from the file (and confirmed). */
export type CoverageSource = Schemas['CoverageSource'];
/** What a reading by AI suggests a certificate shows: the coverage shape, amounts in whole dollars. */
export type CoverageSuggestion = Schemas['Coverage'];
/** Where a certificate's reading by AI is. */
export type ExtractionStatus = Schemas['ExtractionStatus'];
/**
 * 200 of GET /api/documents/{id}/extraction: the document's latest reading by AI, with each
 * field's confidence (0 to 1) by path (`lines[0].limits.eachOccurrence`) once done, and the
 * checks a person should look at. The portal's GET/PUT /api/portal/reading?token= answers the
 * same shape, without the checks.
 */
export type Extraction = Schemas['ExtractionResponse'];
/** 202 of POST /api/documents/{id}/extract: the reading queued (or the one already under way). */
export type ExtractionAccepted = Schemas['ExtractionAccepted'];
/** Body of POST /api/vendors/requirement-set: many vendors get one set, or none (null). */
export type AssignRequirementSetInput = Schemas['AssignParams'];
/** 200 of POST /api/vendors/requirement-set: how many vendors now have the set. */
export type AssignRequirementSetResult = Schemas['AssignedResponse'];
/** 200 of POST /api/vendors/{id}/gap-request: who was emailed, and the gaps it named. */
export type GapRequestResult = Schemas['GapRequestResponse'];

/** Integrations (docs/product.md, "Integrations"). */
export type ApiKeyScope = Schemas['ApiKeyScope'];
export type ApiKey = Schemas['ApiKey'];
export type NewApiKey = Schemas['NewApiKey'];
export type ApiKeyInput = Narrow<Schemas['ApiKeyParams'], { scope: ApiKeyScope }>;
/** The events an endpoint may choose (`ping` is the test event only). */
export type WebhookEvent = Exclude<Schemas['WebhookEvent'], 'ping'>;
export type DeliveryStatus = Schemas['WebhookDeliveryStatus'];
export type Webhook = Narrow<Schemas['Webhook'], { events: WebhookEvent[] }>;
export type NewWebhook = Webhook & { secret: string };
export type WebhookInput = Narrow<Schemas['WebhookParams'], { events: WebhookEvent[] }>;
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type CalendarFeed = Schemas['CalendarFeed'];
