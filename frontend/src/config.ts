/** The support contact shown in the landing page footer. */
export const SUPPORT_EMAIL = 'support@vendorwatch.app';

export const APP_NAME = 'Vendorwatch';

/**
 * Business constants, matching the server's (docs/product.md: "Organizations, users and roles",
 * "Vendors and company keys", "Plans and limits", "Uploads", "Lists").
 */
export const FREE_VENDOR_LIMIT = 2;
export const FREE_DOCUMENTS_PER_VENDOR = 10;
export const PROFESSIONAL_VENDOR_LIMIT = 25;
export const PROFESSIONAL_PRICE = 29;
/** How many people each plan has room for until the server says (GET /api/config, plans.<plan>.seats). */
export const PLAN_SEATS = { free: 2, professional: 10 } as const;
export const TABLE_PAGE_SIZE = 5;
/** A list's search is sent to the server once typing has paused this long. */
export const SEARCH_DEBOUNCE_MS = 250;
export const RECENT_ACTIVITY_LIMIT = 4;
export const COMPANY_KEY_LENGTH = 8;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const PASSWORD_MIN_LENGTH = 6;
export const NAME_MIN_LENGTH = 2;
/** The server's bounds on the sign-up and sign-in fields (it answers 422 past them). */
export const NAME_MAX_LENGTH = 100;
export const COMPANY_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 128;
/** An upload's notes, at most (signed-in and portal), as an edit allows. */
export const UPLOAD_NOTES_MAX_LENGTH = 5000;
export const SLUG_MAX_LENGTH = 200;
/** The most ids one bulk call takes (the server answers 422 above it). */
export const BULK_ID_LIMIT = 500;
/** Posts per page of the admin area's post list and of the public blog list. */
export const ADMIN_POST_PAGE_SIZE = 5;
export const BLOG_PAGE_SIZE = 6;
/** The editor's counters (what search engines show). */
export const META_TITLE_MAX = 60;
export const META_DESCRIPTION_MAX = 160;
/** An empty excerpt becomes the content's first characters plus an ellipsis. */
export const EXCERPT_FALLBACK_LENGTH = 200;

/** The keyword upload's calls: 100 rows each, 500 ms apart (docs/product.md, "Screens"). */
export const KEYWORD_CHUNK_ROWS = 100;
export const KEYWORD_CHUNK_PAUSE_MS = 500;
/** The keyword count (and each upload's ingest) is read again this often while an ingest runs. */
export const KEYWORD_POLL_MS = 5000;
export const KEYWORD_SUGGESTION_COUNT = 4;
/** A generation job is read again this often until it has finished. */
export const GENERATION_POLL_MS = 2000;
export const AI_DEFAULT_CATEGORY = 'Vendor Management';
export const AI_CATEGORY_MAX = 60;
export const AI_DEFAULT_WORD_COUNT = 1200;
export const AI_MIN_WORD_COUNT = 300;
export const AI_MAX_WORD_COUNT = 3000;
export const AI_MAX_KEYWORDS = 5;
export const AI_KEYWORD_MAX = 100;
/** What one AI post costs, about, in USD. */
export const AI_POST_COST = 0.2;
/** Weekly automation: posts per week and their monthly cost (USD); 5 is recommended. */
export const WEEKLY_PLAN_OPTIONS = [
  { postsPerWeek: 3, monthlyCost: 9 },
  { postsPerWeek: 5, monthlyCost: 15 },
  { postsPerWeek: 7, monthlyCost: 21 },
] as const;
export const RECOMMENDED_POSTS_PER_WEEK = 5;
/** A new weekly plan's posts are scheduled over this many days. */
export const WEEKLY_PLAN_DAYS = 5;
