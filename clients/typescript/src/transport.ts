import { errorFrom, retryAfterSeconds } from "./errors.js";

/** How long the SDK keeps trying before an error reaches the caller. */
export interface RetryOptions {
  /** Tries after the first (default 3). */
  maxRetries?: number;
  /** Total seconds of waiting allowed for one call (default 60): a `Retry-After` past it is
   * not waited out, and the caller gets the error with the time to retry. */
  budgetSeconds?: number;
  /** The backoff's first and largest ceilings, when the service names no time (0.5 s, 8 s). */
  baseDelaySeconds?: number;
  maxDelaySeconds?: number;
  /** Told of each wait before it starts: for logs. */
  onRetry?: (retry: RetryInfo) => void;
}

export interface RetryInfo {
  attempt: number;
  waitSeconds: number;
  status?: number;
  error?: unknown;
}

/** The `X-RateLimit-*` headers, as numbers: the window with the fewest requests left. */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Unix time, in seconds, at which that window ends. */
  reset: number;
}

export function rateLimitOf(headers: Headers): RateLimit | undefined {
  const [limit, remaining, reset] = ["Limit", "Remaining", "Reset"].map((name) =>
    Number.parseInt(headers.get(`X-RateLimit-${name}`) ?? "", 10),
  );
  if ([limit, remaining, reset].some(Number.isNaN)) {
    return undefined;
  }
  return { limit, remaining, reset };
}

interface Kept {
  etag: string;
  body: ArrayBuffer;
  headers: Headers;
}

/** Answers kept by their `ETag` (docs/design.md#conditional-gets): a GET sends `If-None-Match`, and a `304`,
 * which spends nothing of the day window, is answered from here. Opt-in. */
export class EtagCache {
  hits = 0;
  private readonly kept = new Map<string, Kept>();

  constructor(readonly maxEntries = 500) {}

  get(key: string): Kept | undefined {
    return this.kept.get(key);
  }

  set(key: string, kept: Kept): void {
    this.kept.delete(key);
    this.kept.set(key, kept);
    if (this.kept.size > this.maxEntries) {
      this.kept.delete(this.kept.keys().next().value as string);
    }
  }
}

export interface TransportOptions {
  retry: RetryOptions;
  cache: EtagCache | undefined;
  fetch: typeof globalThis.fetch;
  onRateLimit: (rateLimit: RateLimit) => void;
}

const RETRIED_STATUSES = new Set([429, 503]);

/** The fetch that openapi-fetch calls: every call of the generated client goes through it. */
export function transport(options: TransportOptions): (input: Request) => Promise<Response> {
  const { maxRetries = 3, budgetSeconds = 60, onRetry } = options.retry;
  const { baseDelaySeconds = 0.5, maxDelaySeconds = 8 } = options.retry;
  // Full jitter: clients that failed together do not come back together.
  const backoff = (attempt: number) =>
    Math.random() * Math.min(maxDelaySeconds, baseDelaySeconds * 2 ** attempt);

  return async (input: Request): Promise<Response> => {
    const headers = new Headers(input.headers);
    // One key per operation meant to happen once: the service replays its first answer to a retry.
    if (input.method === "POST" && !headers.has("Idempotency-Key")) {
      headers.set("Idempotency-Key", globalThis.crypto.randomUUID()); // Web Crypto: browsers too
    }
    const cacheKey = `${input.url} ${headers.get("Authorization") ?? ""}`;
    const kept = input.method === "GET" ? options.cache?.get(cacheKey) : undefined;
    if (kept && !headers.has("If-None-Match")) {
      headers.set("If-None-Match", kept.etag);
    }
    const request = new Request(input, { headers });
    const reconnects = request.method === "GET" || headers.has("Idempotency-Key");
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const mayWait = (seconds: number) =>
        attempt < maxRetries && waited + seconds <= budgetSeconds;
      let response: Response;
      try {
        response = await options.fetch(request.clone());
      } catch (error) {
        const wait = backoff(attempt);
        if (!reconnects || isAbort(error) || !mayWait(wait)) {
          throw error;
        }
        onRetry?.({ attempt: attempt + 1, waitSeconds: wait, error });
        await sleep(wait);
        waited += wait;
        continue;
      }
      const rateLimit = rateLimitOf(response.headers);
      if (rateLimit) {
        options.onRateLimit(rateLimit);
      }
      if (RETRIED_STATUSES.has(response.status)) {
        const wait = retryAfterSeconds(response.headers) ?? backoff(attempt);
        if (mayWait(wait)) {
          await response.body?.cancel();
          onRetry?.({ attempt: attempt + 1, waitSeconds: wait, status: response.status });
          await sleep(wait);
          waited += wait;
          continue;
        }
      }
      if (response.status === 304 && kept && options.cache) {
        options.cache.hits++;
        return fromCache(kept, response);
      }
      if (response.status >= 400) {
        throw await errorFrom(response);
      }
      const etag = response.headers.get("ETag");
      if (options.cache && request.method === "GET" && response.status === 200 && etag) {
        const body = await response.arrayBuffer();
        options.cache.set(cacheKey, { etag, body, headers: response.headers });
        return fromCache(options.cache.get(cacheKey)!, response);
      }
      return response;
    }
  };
}

/** The kept answer as a `200`, with the fresh answer's headers (the limit's, the `ETag`). */
function fromCache(kept: Kept, fresh: Response): Response {
  const headers = new Headers(kept.headers);
  fresh.headers.forEach((value, name) => {
    if (name !== "content-length" && name !== "content-type") {
      headers.set(name, value);
    }
  });
  return new Response(kept.body.slice(0), { status: 200, headers });
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

function sleep(seconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}
