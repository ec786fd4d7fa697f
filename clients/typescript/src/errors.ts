import type { components } from "./schema.js";

export type ErrorBody = components["schemas"]["Error"];
/** The codes this SDK knows; a later 1.x may send others (`ErrorBody["code"]` is any string). */
export type ErrorCode = components["schemas"]["ErrorCode"];

/** An answer of 400 or more, read from its Error body; the subclass says which kind. */
export class PetstoreError extends Error {
  readonly status: number;
  readonly code: ErrorBody["code"] | undefined;
  readonly body: ErrorBody | undefined;
  readonly headers: Headers;

  constructor(status: number, body: ErrorBody | undefined, headers: Headers) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = new.target.name;
    this.status = status;
    this.code = body?.code;
    this.body = body;
    this.headers = headers;
  }
}

/** 400: `validation_error` (with each field's messages) or `malformed_request`. */
export class ValidationError extends PetstoreError {
  get fieldErrors(): Record<string, string[]> {
    return this.body?.errors ?? {};
  }
}

export class UnauthorizedError extends PetstoreError {}
export class ForbiddenError extends PetstoreError {}
export class NotFoundError extends PetstoreError {}
export class ConflictError extends PetstoreError {}
export class GoneError extends PetstoreError {}
export class IdempotencyKeyReusedError extends PetstoreError {}
export class ServiceUnavailableError extends PetstoreError {}

/** 429 past the retry budget: `rate_limited` or `temporarily_banned`. */
export class RateLimitError extends PetstoreError {
  /** Seconds the service asked to wait (`Retry-After`). */
  get retryAfter(): number | undefined {
    return retryAfterSeconds(this.headers);
  }
}

// A code added after this SDK was made finds no class here: its status chooses one.
const BY_CODE: Partial<Record<string, typeof PetstoreError>> = {
  validation_error: ValidationError,
  malformed_request: ValidationError,
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  conflict: ConflictError,
  gone: GoneError,
  idempotency_key_reused: IdempotencyKeyReusedError,
  rate_limited: RateLimitError,
  temporarily_banned: RateLimitError,
  service_unavailable: ServiceUnavailableError,
} satisfies Partial<Record<ErrorCode, typeof PetstoreError>>;

// Answers from something before the service (a proxy's 429, say) may lack the Error body.
const BY_STATUS: Record<number, typeof PetstoreError> = {
  400: ValidationError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  422: IdempotencyKeyReusedError,
  429: RateLimitError,
  503: ServiceUnavailableError,
};

export async function errorFrom(response: Response): Promise<PetstoreError> {
  let body: ErrorBody | undefined;
  try {
    const parsed: unknown = JSON.parse(await response.text());
    if (parsed !== null && typeof parsed === "object" && "code" in parsed) {
      body = parsed as ErrorBody;
    }
  } catch {
    body = undefined;
  }
  const kind = (body && BY_CODE[body.code]) ?? BY_STATUS[response.status] ?? PetstoreError;
  return new kind(response.status, body, response.headers);
}

/** `Retry-After` in seconds, whether sent as seconds or as an HTTP date. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get("Retry-After");
  if (value === null || value.trim() === "") {
    return undefined;
  }
  const seconds = Number(value);
  if (Number.isFinite(seconds)) {
    return Math.max(0, seconds);
  }
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}
