import createClient, { type Client } from "openapi-fetch";

import type { components, paths } from "./schema.js";
import { EtagCache, type RateLimit, type RetryOptions, transport } from "./transport.js";

export * from "./errors.js";
export { EtagCache, rateLimitOf } from "./transport.js";
export type { RateLimit, RetryInfo, RetryOptions } from "./transport.js";
export type { components, paths } from "./schema.js";

export type Pet = components["schemas"]["Pet"];
export type Category = components["schemas"]["Category"];
export type Order = components["schemas"]["Order"];
export type Event = components["schemas"]["Event"];

/** The servers the OpenAPI document lists. */
export const SERVERS = {
  production: "https://petstore.example.com/v1",
  staging: "https://staging.petstore.example.com/v1",
} as const;

export interface PetstoreOptions {
  /** A secret key (`petstore_live_…`), or a publishable one in a browser. */
  apiKey: string;
  /** `production` (the default), `staging`, or any base URL ending in `/v1`. */
  server?: keyof typeof SERVERS | (string & {});
  retry?: RetryOptions;
  /** Keep answers by their `ETag` and ask with `If-None-Match`: `true`, or a cache to share. */
  cache?: boolean | EtagCache;
  /** The fetch underneath (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

/**
 * The API through openapi-fetch (`petstore.api.GET("/pets", …)`), with the partner's chores
 * done: the key sent, `429` and `503` waited out, connection errors retried for GETs and for
 * POSTs (each gets an `Idempotency-Key`), errors thrown as `PetstoreError`s by code.
 */
export class Petstore {
  readonly api: Client<paths>;
  readonly cache: EtagCache | undefined;
  /** The limit's headers of the latest answer, as numbers. */
  rateLimit: RateLimit | undefined;

  constructor(options: PetstoreOptions) {
    const server = options.server ?? "production";
    const baseUrl = server in SERVERS ? SERVERS[server as keyof typeof SERVERS] : server;
    if (!/^https?:\/\//.test(baseUrl)) {
      throw new TypeError(`server: "production", "staging" or a URL, not ${JSON.stringify(server)}`);
    }
    this.cache = options.cache === true ? new EtagCache() : options.cache || undefined;
    const fetch = transport({
      retry: options.retry ?? {},
      cache: this.cache,
      fetch: options.fetch ?? globalThis.fetch,
      onRateLimit: (rateLimit) => {
        this.rateLimit = rateLimit;
      },
    });
    this.api = createClient<paths>({
      baseUrl,
      fetch,
      headers: { Authorization: `Bearer ${options.apiKey}` },
    });
  }
}

type Page<T> = (cursor: string | undefined) => Promise<{ data?: T[]; response: Response }>;

/**
 * Every item of a listing, page after page, following `Link: rel="next"` to the end (no link,
 * or an empty page): `page` asks for one page with the cursor it is given (none at first).
 *
 *     for await (const pet of paginate((cursor) =>
 *       petstore.api.GET("/pets", { params: { query: { status: "available", cursor } } }))) {}
 */
export function paginate<T>(page: Page<T>): AsyncGenerator<T, void, undefined> {
  return walk(page, undefined);
}

/** The events feed as it grows: at its end, asked again every `everySeconds` (with the cache
 * on, a `304` spends nothing of the day). Never ends: break out of it. */
export function follow<T>(page: Page<T>, everySeconds = 5): AsyncGenerator<T, void, undefined> {
  return walk(page, everySeconds);
}

async function* walk<T>(page: Page<T>, everySeconds: number | undefined): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const { data = [], response } = await page(cursor);
    yield* data;
    const found = nextCursor(response.headers.get("Link"));
    // The feed links on from its last page too; a listing stops linking.
    if (found === undefined || (data.length === 0 && everySeconds === undefined)) {
      return;
    }
    if (data.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, (everySeconds ?? 0) * 1000));
    }
    cursor = found;
  }
}

/** The cursor of the `rel="next"` link; the link keeps the listing's other parameters, which
 * `page` sends again itself, typed. */
export function nextCursor(link: string | null): string | undefined {
  // Not split at commas: a listing's own parameters may hold some (categoryId=1,2).
  const match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(link ?? "");
  return match ? (new URL(match[1], "http://localhost").searchParams.get("cursor") ?? undefined) : undefined;
}
