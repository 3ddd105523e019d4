import type {
  ActivityEntry,
  BlogPost,
  GenerationJob,
  GenerationJobStatus,
  Invitation,
  KeywordIngest,
  KeywordRow,
  WeeklyPlan,
  ComplianceReport,
  ExpirationsReport,
  Extraction,
  ExtractionStatus,
  NonCompliantVendor,
  PaymentStatus,
  Reminder,
  ReportDays,
  RequirementSet,
  ResponsivenessRow,
  User,
  Vendor,
  VendorDocument,
  CoverageInput,
} from '@/types/api';
import type { ApiKey, Webhook, WebhookDelivery } from '@/types/api';
import { buildExpirationsReport, buildNonCompliantVendors, buildResponsivenessRows } from './fixtures';

/** In-memory data behind the MSW handlers; reset before every test. */
export type MockAccount = User & { password: string };

export const db = {
  accounts: [] as MockAccount[],
  tokens: new Map<string, string>(),
  vendors: [] as Vendor[],
  documents: [] as VendorDocument[],
  /** Earlier versions, replaced by a renewal: GET /api/documents/{id} lists them as history. */
  history: [] as VendorDocument[],
  activity: [] as ActivityEntry[],
  reminders: [] as Reminder[],
  plan: { plan: 'free', vendorLimit: 2, documentLimitPerVendor: 10 } as MockPlan,
  billing: defaultBilling(),
  /** Vendor ids sent a renewal request today (a second one the same day is skipped). */
  renewalRequests: [] as string[],
  reports: defaultReports(),
  blogPosts: [] as BlogPost[],
  /** Slugs a post had before a rename: the public read answers the post under its current slug. */
  oldSlugs: new Map<string, number>(),
  content: defaultContent(),
  team: defaultTeam(),
  requirementSets: [] as RequirementSet[],
  /** Vendor ids asked for corrections today (a second request the same day is a 429). */
  gapRequests: [] as string[],
  /** The portal's readings by token (GET|PUT /api/portal/reading?token=). */
  portalReadings: new Map<string, MockPortalReading>(),
  readings: defaultReadings(),
  integrations: defaultIntegrations(),
};

/** The Integrations page's data: API keys, webhook endpoints and their deliveries, the calendar feed. */
export type MockIntegrations = {
  apiKeys: ApiKey[];
  webhooks: Webhook[];
  /** By endpoint id, newest first. */
  deliveries: Map<string, WebhookDelivery[]>;
  /** The calendar feed's secret part of its address. */
  calendarToken: string;
};

export function defaultIntegrations(): MockIntegrations {
  return { apiKeys: [], webhooks: [], deliveries: new Map(), calendarToken: 'cal-token-1' };
}

/**
 * A reading the portal shows: `steps` are the statuses the next GETs answer, one each, before
 * `reading` itself (queued, running, then done); `corrections` are the PUTs' bodies, in order.
 */
export type MockPortalReading = { reading: Extraction; steps: ExtractionStatus[]; corrections: CoverageInput[] };

/**
 * Certificates read by AI: each document's latest reading, and how a reading asked for goes. The
 * first read of a reading shows the status it was queued with; each later read moves it one step
 * along `script`, the last step answering `outcome` (done) or `reason` (failed, unavailable).
 */
export type MockReadings = {
  byDocument: Map<string, Extraction>;
  /** Reading ids read at least once. */
  read: Set<string>;
  script: ExtractionStatus[];
  /** What a reading that ends done answers. */
  outcome: Pick<Extraction, 'suggestion' | 'confidence' | 'notes'>;
  reason: string;
  /** This month's readings are used: POST /extract is a 402. */
  allowanceUsed: boolean;
};

export function defaultReadings(): MockReadings {
  return {
    byDocument: new Map(),
    read: new Set(),
    script: ['queued', 'running', 'done'],
    outcome: { suggestion: null, confidence: {}, notes: [] },
    reason: 'The AI service did not answer within 120 seconds.',
    allowanceUsed: false,
  };
}

/** The content engine: keywords, their ingests, AI generation jobs and the weekly plan. */
export type MockContent = {
  aiConfigured: boolean;
  aiModel: string | null;
  /** Keywords by their trimmed, lower-cased text (the server merges case). */
  keywords: Map<string, KeywordRow>;
  /** Ingests, and the rows each adds once done. */
  ingests: (KeywordIngest & { rows: KeywordRow[] })[];
  /** Chunk reads before an ingest is done: 0 finishes it on its first read. */
  ingestReadsToFinish: number;
  /** What suggest-keywords answers; the server's built-in set stands in when null. */
  suggestions: string[] | null;
  jobs: GenerationJob[];
  /** Jobs read at least once: each later read moves a job one step along `jobScript`. */
  readJobs: Set<number>;
  /** The statuses a new job goes through, one per read of it after the first. */
  jobScript: GenerationJobStatus[];
  /** The error text of a job whose script ends in failed. */
  jobError: string;
  weeklyPlan: WeeklyPlan | null;
  generationsThisMonth: number;
  generationCostThisMonth: number;
};

export function defaultContent(): MockContent {
  return {
    aiConfigured: true,
    aiModel: 'gpt-4o-mini',
    keywords: new Map(),
    ingests: [],
    ingestReadsToFinish: 0,
    suggestions: null,
    jobs: [],
    readJobs: new Set(),
    jobScript: ['queued', 'running', 'succeeded'],
    jobError: 'The AI service did not answer in time.',
    weeklyPlan: null,
    generationsThisMonth: 0,
    generationCostThisMonth: 0,
  };
}

/** The plan and its limits; GET /api/payment-status adds the vendor count and the billing fields. */
export type MockPlan = Pick<PaymentStatus, 'plan' | 'vendorLimit' | 'documentLimitPerVendor'>;

/** What the mock server knows about Stripe for the signed-in organization. */
export type MockBilling = Pick<PaymentStatus, 'billingEnabled' | 'renewsAt' | 'cancelAt' | 'paymentProblem'> & {
  /** Checkout session ids Stripe reports as paid. */
  paidSessions: string[];
  /** The organization has paid once, so it has a Stripe customer and a portal. */
  hasCustomer: boolean;
};

/** What the report endpoints answer for a Professional organization. */
export type MockReports = {
  compliance: Partial<Record<ReportDays, ComplianceReport>>;
  expirations: ExpirationsReport;
  nonCompliant: NonCompliantVendor[];
  responsiveness: ResponsivenessRow[];
};

function defaultReports(): MockReports {
  return {
    compliance: {},
    expirations: buildExpirationsReport(),
    nonCompliant: buildNonCompliantVendors(),
    responsiveness: buildResponsivenessRows(),
  };
}

function defaultBilling(): MockBilling {
  return { billingEnabled: true, renewsAt: null, cancelAt: null, paymentProblem: null, paidSessions: [], hasCustomer: false };
}

/** The organization's people are db.accounts; these are its pending invitations and who was active when. */
export type MockTeam = {
  invitations: (Invitation & { token: string })[];
  lastActive: Map<string, string>;
  organizationName: string;
};

export function defaultTeam(): MockTeam {
  return { invitations: [], lastActive: new Map(), organizationName: 'Acme' };
}

export function resetDb() {
  db.team = defaultTeam();
  db.accounts = [];
  db.tokens = new Map();
  db.vendors = [];
  db.documents = [];
  db.history = [];
  db.activity = [];
  db.reminders = [];
  db.plan = { plan: 'free', vendorLimit: 2, documentLimitPerVendor: 10 };
  db.billing = defaultBilling();
  db.renewalRequests = [];
  db.reports = defaultReports();
  db.blogPosts = [];
  db.oldSlugs = new Map();
  db.content = defaultContent();
  db.requirementSets = [];
  db.gapRequests = [];
  db.portalReadings = new Map();
  db.readings = defaultReadings();
  db.integrations = defaultIntegrations();
}

export function createAccount(overrides: Partial<MockAccount> = {}): MockAccount {
  const account: MockAccount = {
    id: `user-${db.accounts.length + 1}`,
    name: 'Jane Doe',
    email: 'jane@example.com',
    company: 'Acme',
    role: 'user',
    plan: 'free',
    weeklySummary: false,
    orgRole: 'owner',
    reminderEmails: true,
    timeZone: 'UTC',
    password: 'secret123',
    ...overrides,
  };
  db.accounts.push(account);
  return account;
}

export function issueToken(account: MockAccount): string {
  const token = `token-${account.id}`;
  db.tokens.set(token, account.id);
  return token;
}

export function publicUser(account: MockAccount): User {
  const { password: _password, ...user } = account;
  return user;
}

/** Resolves the bearer token of a request to its account, if any. */
export function accountFromRequest(request: Request): MockAccount | undefined {
  const header = request.headers.get('Authorization') ?? '';
  const token = header.replace(/^Bearer\s+/i, '');
  const id = db.tokens.get(token);
  return db.accounts.find((a) => a.id === id);
}
