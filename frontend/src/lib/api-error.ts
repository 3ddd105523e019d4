import type { ErrorEnvelope } from '@/types/api';

export type FieldErrors = Record<string, string[]>;

export type ApiErrorDetails = {
  /** Seconds to wait before trying again (a 429's Retry-After header). */
  retryAfter?: number | null;
  /** The message is a sentence the server wrote, not the '{status}: ...' fallback. */
  fromServer?: boolean;
};

/**
 * The one error every failed API call turns into. The UI branches on `code` (and on `status` only
 * to tell a lost connection or a 5xx), never on `message` (which is for people).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldErrors;
  readonly retryAfter: number | null;
  readonly fromServer: boolean;

  constructor(status: number, code: string, message: string, errors: FieldErrors = {}, details: ApiErrorDetails = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.retryAfter = details.retryAfter ?? null;
    this.fromServer = details.fromServer ?? false;
  }

  /** First message for a field, if the server sent one. */
  fieldError(field: string): string | undefined {
    return this.errors[field]?.[0];
  }
}

export const NETWORK_ERROR = 'network_error';

/** The envelope's `error` codes the screens act on: the UI branches on these, never on 4xx status numbers or message text. */
export const ERROR_CODES = {
  notFound: 'not_found',
  planLimit: 'plan_limit',
  validationFailed: 'validation_failed',
  rateLimited: 'rate_limited',
  emailTaken: 'email_taken',
  companyKeyTaken: 'company_key_taken',
  companyKeyRequired: 'company_key_required',
  billingNotConfigured: 'billing_not_configured',
  alreadyProfessional: 'already_professional',
  paymentNotConfirmed: 'payment_not_confirmed',
  noBillingAccount: 'no_billing_account',
  /** A Professional-only call (bulk operations, reports) made by a Free organization. */
  planRequired: 'plan_required',
  /** A signed-in user without the admin role calling an admin route. */
  forbidden: 'forbidden',
  /** The server has no AI key configured: nothing can be generated (docs/decisions.md, 17). */
  aiNotConfigured: 'ai_not_configured',
  /** The change clashes with the current state (a weekly plan is already active). */
  conflict: 'conflict',
  /** A vendor was asked for corrections today already (at most once a day). */
  alreadyRequested: 'already_requested',
  /** No gap of the vendor counts: there is nothing to ask it to correct. */
  nothingToCorrect: 'nothing_to_correct',
} as const;
export const MISSING_TOKEN = 'missing_token';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEnvelope(value: unknown): value is ErrorEnvelope {
  return isRecord(value) && typeof value.error === 'string';
}

function readFieldErrors(value: unknown): FieldErrors {
  if (!isRecord(value)) return {};
  const result: FieldErrors = {};
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) {
      result[field] = messages.filter((m): m is string => typeof m === 'string');
    } else if (typeof messages === 'string') {
      result[field] = [messages];
    }
  }
  return result;
}

/** Retry-After in whole seconds (delta form only; an HTTP date is ignored). */
function readRetryAfter(response: Response): number | null {
  const raw = response.headers.get('Retry-After');
  if (!raw || !/^\d+$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/**
 * Maps a non-OK response to an ApiError. The message is the server's sentence; without one it is
 * '{status}: {response text}', or '{status}: {status text}' for an empty or HTML body
 * (docs/product.md, "Screens").
 */
export async function toApiError(response: Response): Promise<ApiError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    text = '';
  }
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const retryAfter = readRetryAfter(response);
  const fallback = `${response.status}: ${text.trim() && !text.trimStart().startsWith('<') ? text.trim() : response.statusText}`;
  if (isEnvelope(body)) {
    const fromServer = typeof body.message === 'string' && body.message !== '';
    const message = fromServer ? body.message : fallback;
    return new ApiError(response.status, body.error, message, readFieldErrors(body.errors), { retryAfter, fromServer });
  }
  // A JSON body with a message but no code: not this server's (its failures all carry a code), say a proxy's.
  if (isRecord(body) && typeof body.message === 'string' && body.message) {
    return new ApiError(response.status, `http_${response.status}`, body.message, {}, { retryAfter, fromServer: true });
  }
  return new ApiError(response.status, `http_${response.status}`, fallback, {}, { retryAfter });
}

export function networkError(cause: unknown): ApiError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ApiError(0, NETWORK_ERROR, `0: ${detail || 'Network request failed'}`);
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The sentence the server sent with a failure, if it sent one; callers fall back to their own text. */
export function serverMessage(error: unknown): string | undefined {
  return isApiError(error) && error.fromServer ? error.message : undefined;
}

/** The message to show in a toast: the error's message, otherwise the given fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
